/**
 * `gjc plugin session --family c2`: the C2 counterpart of the GJC session plan. What a host
 * loads from enabled C2 bundles at session start, each item with its persisted id
 * `<plugin-id>:<kind>:<local-id>` and the verified files it comes from:
 *   skills          skills/<name>/SKILL.md (+ the files of that folder)
 *   subagents       agents/**.md
 *   promptCommands  commands/**.md, compiled to their Skill fallback (the standard says prompt
 *                   commands are "supported as content": a host without prompt commands runs
 *                   the same text as a skill)
 *   mcpServers      mcp.json servers, gated like `gjc plugin mcp list` gates them
 * Every bundle is verified first (drift quarantines it, through the store's verify); only
 * active bundles contribute. Content is user-wide in C2 1.2 (project policy governs runtimes
 * only), so `--project` names the session's project but never filters content.
 */
import { dirname, join } from "node:path";
import { readRegularFile } from "../bundle/read-file.ts";
import { sha256Hex } from "../bundle/hash.ts";
import { C2_LIMITS } from "../bundle/limits.ts";
import type { Context } from "../core/context.ts";
import { DiagnosticSink } from "../core/diagnostics.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { inventoryC2Contributions } from "../families/c2/contributions.ts";
import { parseFrontmatter } from "../families/c2/frontmatter.ts";
import { listC2McpServers, type C2McpEntry } from "./mcp-servers.ts";
import { verifiedC2Bundles, type VerifiedC2Bundle } from "./verified-bundles.ts";

export interface VerifiedFile {
  /** Absolute path in the installed bundle. */
  path: string;
  /** Bundle-relative path. */
  relativePath: string;
  sha256: string;
  bytes: number;
}

interface Item {
  id: string;
  plugin: string;
  bundle: string;
  name: string;
  description: string;
  file: VerifiedFile;
}

export interface C2SessionDocument {
  schema: "gjc/c2-session@1";
  family: "c2";
  ok: boolean;
  projectDir: string;
  /** Content of C2 1.2 bundles is user-wide; runtime policy is what projects change. */
  contentScope: "user";
  bundles: {
    id: string;
    name: string;
    version: string;
    status: string;
    trusted: boolean;
    reasons: { code: string; message: string }[];
  }[];
  skills: (Item & { files: VerifiedFile[] })[];
  subagents: (Item & { model?: string; tools?: string[] })[];
  promptCommands: (Item & { skillFallback: { name: string; description: string; instructions: string } })[];
  mcpServers: C2McpEntry[];
}

function verifiedFile(v: VerifiedC2Bundle, rel: string): VerifiedFile {
  const f = v.files.get(rel);
  if (!f)
    throw new GjcError({
      code: "runtime_mismatch",
      message: `${v.bundle.name}: ${rel} is not an installed file.`,
      exit: ExitCode.refused,
    });
  return { path: join(v.bundle.bundleDir, rel), relativePath: rel, sha256: f.sha256, bytes: f.size };
}

/** Reads a verified file and checks its bytes once more (what the host gets is what was hashed). */
function verifiedText(v: VerifiedC2Bundle, file: VerifiedFile): string {
  const bytes = readRegularFile(file.path, C2_LIMITS.maxFileBytes).bytes;
  if (sha256Hex(bytes) !== file.sha256) {
    throw new GjcError({
      code: "runtime_mismatch",
      message: `${v.bundle.name}: ${file.relativePath} changed while the session was being built.`,
      hint: `Run "gjc plugin verify ${v.bundle.name}".`,
      exit: ExitCode.refused,
    });
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Bundles the C2 app installed in the shared data directory: listed so a host sees them, never
 * loaded (gjc holds no hashes of their files, so it cannot hand them out as verified content).
 */
async function foreignRows(ctx: Context): Promise<C2SessionDocument["bundles"]> {
  const [{ scanRecords }, { c2Layout }] = await Promise.all([
    import("../c2store/records.ts"),
    import("../c2store/paths.ts"),
  ]);
  return scanRecords(c2Layout(ctx)).foreign.map((f) => ({
    id: f.id,
    name: f.name ?? f.id,
    version: f.version ?? "",
    status: "foreign" as const,
    trusted: f.trusted ?? false,
    reasons: [{ code: "foreign_record", message: `${f.name ?? f.id}: ${f.problem}; gjc does not load its content.` }],
  }));
}

export async function c2SessionDocument(ctx: Context, opts: { project?: string } = {}): Promise<C2SessionDocument> {
  const verified = await verifiedC2Bundles(ctx, { persist: true });
  const { normalizeProjectPath } = await import("../c2store/project-key.ts");
  const doc: C2SessionDocument = {
    schema: "gjc/c2-session@1",
    family: "c2",
    ok: verified.every((v) => v.status !== "quarantined"),
    projectDir: normalizeProjectPath(ctx, opts.project ?? ctx.cwd),
    contentScope: "user",
    bundles: [
      ...verified.map((v) => ({
        id: v.bundle.id,
        name: v.bundle.name,
        version: v.bundle.version,
        status: v.status,
        trusted: v.bundle.trusted,
        reasons: v.reasons,
      })),
      ...(await foreignRows(ctx)),
    ],
    skills: [],
    subagents: [],
    promptCommands: [],
    mcpServers: [],
  };
  for (const v of verified) {
    if (v.status !== "active") continue;
    const { bundle } = v;
    const inv = inventoryC2Contributions(bundle.bundleDir, bundle.manifest, new DiagnosticSink());
    const base = (kind: string, localId: string, name: string, description: string, rel: string): Item => ({
      id: `${bundle.id}:${kind}:${localId}`,
      plugin: bundle.id,
      bundle: bundle.name,
      name,
      description,
      file: verifiedFile(v, rel),
    });
    for (const s of inv.skills) {
      const folder = `${dirname(s.path)}/`;
      const files = [...v.files.keys()]
        .filter((p) => p.startsWith(folder))
        .sort()
        .map((p) => verifiedFile(v, p));
      doc.skills.push({ ...base("skill", s.localId, s.name, s.description, s.path), files });
    }
    for (const a of inv.agents) {
      doc.subagents.push({
        ...base("agent", a.localId, a.name, a.description, a.path),
        ...(a.model ? { model: a.model } : {}),
        ...(a.tools ? { tools: a.tools } : {}),
      });
    }
    for (const c of inv.promptCommands) {
      const item = base("command", c.localId, c.name, c.description, c.path);
      const parsed = parseFrontmatter(verifiedText(v, item.file));
      const instructions = parsed.ok ? parsed.doc.body : "";
      doc.promptCommands.push({ ...item, skillFallback: { name: c.name, description: c.description, instructions } });
    }
  }
  // Servers of active bundles only; verification already ran above.
  const active = new Set(verified.filter((v) => v.status === "active").map((v) => v.bundle.id));
  doc.mcpServers = (await listC2McpServers(ctx)).filter((s) => active.has(s.plugin));
  // A server whose tool definitions drifted from their pins stays out until accepted (src/mcp/pins.ts).
  if (doc.mcpServers.length > 0) doc.mcpServers = await withoutDriftedServers(ctx, verified, doc.mcpServers);
  return doc;
}

async function withoutDriftedServers(
  ctx: Context,
  verified: Awaited<ReturnType<typeof verifiedC2Bundles>>,
  servers: C2McpEntry[],
): Promise<C2McpEntry[]> {
  const [{ pinExclusion }, { c2ServerBinding }, { c2DataDir }] = await Promise.all([
    import("../mcp/pins.ts"),
    import("../mcp/pins-binding.ts"),
    import("../core/context.ts"),
  ]);
  return servers.filter((s) => {
    const v = verified.find((b) => b.bundle.id === s.plugin);
    if (!v) return true;
    return !pinExclusion(
      c2DataDir(ctx),
      { family: "c2", scope: "user", bundle: v.bundle.name, server: s.server },
      c2ServerBinding(s, v.bundle.bundleDir, v.bundle.record.files),
    );
  });
}
