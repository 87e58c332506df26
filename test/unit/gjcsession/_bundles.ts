import { join } from "node:path";
import type { Context } from "../../../src/core/context.ts";
import { compileGjcBundle } from "../../../src/families/gjc/compile.ts";
import { installCompiled } from "../../../src/install/install.ts";
import type { Scope } from "../../../src/install/registry-types.ts";
import type { Sandbox } from "../../helpers/sandbox.ts";
import { writeTree } from "../../helpers/tmp.ts";

export interface BundleSpec {
  name: string;
  version?: string;
  /** Tool name (default `<name>_note`); null for none. */
  tool?: string | null;
  hook?: { name: string; event: string; target?: string; phase?: "before" | "after" } | null;
  mcp?: string | null;
  subskills?: { name: string; parent: string; phase: string; arg: string; description?: string; body?: string }[];
  systemAppendix?: string | null;
  agentAppendix?: { agent: string; text: string } | null;
  /** Extra files and manifest keys. */
  files?: Record<string, string>;
  toolSource?: string;
  hookSource?: string;
}

/** Writes a GJC bundle source directory with the surfaces asked for; returns its path. */
export function writeBundle(parent: string, spec: BundleSpec): string {
  const dir = join(parent, `${spec.name}-src-${Math.random().toString(36).slice(2, 8)}`);
  const manifest: Record<string, unknown> = {
    kind: "gajae-code-plugin",
    name: spec.name,
    version: spec.version ?? "1.0.0",
  };
  const files: Record<string, string | object> = { ...(spec.files ?? {}) };
  const tool = spec.tool === undefined ? `${spec.name.replace(/-/g, "_")}_note` : spec.tool;
  if (tool) {
    manifest.tools = [{ name: tool, path: "tools/note.ts", description: `Writes a ${spec.name} note` }];
    files["tools/note.ts"] =
      spec.toolSource ??
      `export default () => ({ name: ${JSON.stringify(tool)}, description: "note", parameters: {}, execute: async () => ({ ok: true }) });\n`;
  }
  if (spec.hook) {
    manifest.hooks = [
      {
        name: spec.hook.name,
        event: spec.hook.event,
        ...(spec.hook.target ? { target: spec.hook.target } : {}),
        ...(spec.hook.phase ? { phase: spec.hook.phase } : {}),
        path: "hooks/audit.ts",
      },
    ];
    files["hooks/audit.ts"] =
      spec.hookSource ?? `export default (api) => { api.on(${JSON.stringify(spec.hook.event)}, async () => {}); };\n`;
  }
  if (spec.mcp) {
    manifest.mcps = [{ name: spec.mcp, transport: "stdio", command: "bun", args: ["mcp/server.ts"], cwd: "." }];
    files["mcp/server.ts"] = `console.log("server");\n`;
  }
  if (spec.subskills?.length) {
    manifest.subskills = spec.subskills.map((s) => `subskills/${s.name}/SKILL.md`);
    for (const s of spec.subskills) {
      files[`subskills/${s.name}/SKILL.md`] =
        `---\nname: ${s.name}\ndescription: ${JSON.stringify(s.description ?? `Guidance for ${s.parent} ${s.phase}`)}\nbinds_to: ${s.parent}\nphase: ${s.phase}\nactivation_arg: ${s.arg}\n---\n${s.body ?? `Body of ${s.name}.`}\n`;
    }
  }
  if (spec.systemAppendix) {
    manifest.system_appendix = [{ name: "policy", path: "prompts/system.md" }];
    files["prompts/system.md"] = spec.systemAppendix;
  }
  if (spec.agentAppendix) {
    manifest["agent-appendix"] = [{ agent: spec.agentAppendix.agent, name: "role", path: "prompts/agent.md" }];
    files["prompts/agent.md"] = spec.agentAppendix.text;
  }
  files["gajae-plugin.json"] = manifest;
  writeTree(dir, files);
  return dir;
}

/** The clock of every session test context (registry timestamps stay the same run to run). */
export const fixedNow = () => new Date("2026-08-01T00:00:00.000Z");

/** A context in the sandbox (its HOME, user scope and project), as the CLI would build it. */
export function testContext(s: Sandbox, env: Record<string, string> = {}): Context {
  return s.context({ env, now: fixedNow });
}

/** Installs a bundle directory through the real install transaction (compiled by the real compiler). */
export async function install(ctx: Context, dir: string, scope: Scope): Promise<void> {
  const compiled = compileGjcBundle(dir, { keepContents: true });
  if (!compiled.bundle) throw new Error(`fixture does not compile: ${JSON.stringify(compiled.diagnostics, null, 2)}`);
  const bundle = { ...compiled.bundle, files: compiled.bundle.files.map((f) => ({ ...f, mode: f.mode ?? 0o644 })) };
  await installCompiled(
    ctx,
    bundle as never,
    [],
    { dir, record: { kind: "path", uri: dir } as { kind: string }, display: dir },
    { scope },
  );
}
