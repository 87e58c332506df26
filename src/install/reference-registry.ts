/**
 * A scope registry written by the reference GJC agent (gjc-notes §4.2/§4.3): the same file
 * (`registry.json`, version 1) in the agent's own shape: the installed copy at `<root>/<name>`,
 * copied files without modes, surfaces without a kind, no gjc signature. It records every fact
 * the seed lists (name/version, source, manifest hash, copied files with their sha256, surface
 * ids, enabled, disabledSurfaceIds, quarantine), so gjc reads it for `list` and `session`.
 *
 * It is never taken for one gjc wrote: the scope stays foreign (every command that would change
 * it refuses with foreign_scope; nothing is swept, persisted or signed), and what is loaded is
 * decided by gjc's own rules, not the agent's records: each installed copy is compiled again by
 * gjc's compiler (launcher and URL policy included), and its files and manifest must be exactly
 * the ones the agent recorded, or the bundle is quarantined for this session.
 */
import { basename, join } from "node:path";
import type { Context } from "../core/context.ts";
import { isGjcError } from "../core/errors.ts";
import { relativePathProblem } from "../bundle/path-safety.ts";
import type { QuarantineRecord, RegistryEntry, RegistrySource, Scope, ScopeRegistry } from "./registry-types.ts";

const SHA256 = /^[0-9a-f]{64}$/;
const NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$/;
const GROUPS = ["subskills", "tools", "hooks", "mcps", "systemAppendices", "agentAppendices"] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** Whether a parsed registry.json is in the reference agent's shape (and not gjc's). */
export function isReferenceRegistry(raw: unknown, scope: Scope): boolean {
  if (!isObject(raw) || raw.version !== 1 || raw.scope !== scope || !Array.isArray(raw.plugins)) return false;
  if (Object.keys(raw).some((k) => k !== "version" && k !== "scope" && k !== "plugins")) return false;
  return raw.plugins.every((e) => referenceEntryProblem(e, scope) === undefined);
}

/** Why one entry is not in the reference shape, or undefined. */
function referenceEntryProblem(e: unknown, scope: Scope): string | undefined {
  if (!isObject(e)) return "not an object";
  // `dir` is gjc's: an entry that has one is gjc's shape, judged by gjc's reader.
  if ("dir" in e) return "gjc's shape";
  if (
    !isString(e.name) ||
    !NAME.test(e.name) ||
    !isString(e.version) ||
    e.scope !== scope ||
    typeof e.enabled !== "boolean"
  )
    return "identity";
  if (
    !isString(e.pluginRoot) ||
    basename(e.pluginRoot) !== e.name ||
    !isString(e.manifestHash) ||
    !SHA256.test(e.manifestHash)
  )
    return "installed copy";
  const source = e.source;
  if (!isObject(source) || !["path", "git", "tarball"].includes(source.kind as string) || !isString(source.resolvedAt))
    return "source";
  if (!isString(e.installedAt) || !isString(e.updatedAt) || !isStrings(e.disabledSurfaceIds)) return "times";
  if (!Array.isArray(e.copiedFiles) || e.copiedFiles.length === 0) return "copiedFiles";
  for (const f of e.copiedFiles) {
    if (
      !isObject(f) ||
      !isString(f.relativePath) ||
      relativePathProblem(f.relativePath) !== undefined ||
      !isString(f.sha256) ||
      !SHA256.test(f.sha256)
    )
      return "copiedFiles";
    if (!Number.isSafeInteger(f.bytes) || (f.bytes as number) < 0) return "copiedFiles";
  }
  if (!isObject(e.surfaces) || !GROUPS.every((g) => Array.isArray((e.surfaces as Record<string, unknown>)[g])))
    return "surfaces";
  if (
    e.quarantine !== undefined &&
    (!Array.isArray(e.quarantine) ||
      !e.quarantine.every(
        (q) =>
          isObject(q) && isString(q.surfaceId) && isString(q.code) && isString(q.message) && isString(q.detectedAt),
      ))
  )
    return "quarantine";
  return undefined;
}

/** The reference source in gjc's vocabulary (credentials are never in it: the agent redacts them too). */
function sourceOf(s: Record<string, unknown>): RegistrySource {
  return {
    kind: s.kind as RegistrySource["kind"],
    ...(isString(s.uri) ? { uri: s.uri } : {}),
    ...(isString(s.ref) ? { ref: s.ref } : {}),
    ...(isString(s.sha) ? { sha: s.sha } : {}),
    resolvedAt: s.resolvedAt as string,
  };
}

/**
 * The entries of a reference-shaped registry as gjc would hold them, each compiled again from
 * its installed copy. A copy that no longer compiles under gjc's rules, or whose files or
 * manifest are not the ones recorded, comes back quarantined as a whole (in memory only).
 */
export async function readReferenceRegistry(
  ctx: Context,
  root: string,
  scope: Scope,
  raw: { plugins: unknown[] },
): Promise<ScopeRegistry> {
  const [{ compileForInstall }, { registrySurfaces }, { emptySurfaces }] = await Promise.all([
    import("../families/gjc/compile-for-install.ts"),
    import("./transaction.ts"),
    import("./registry-types.ts"),
  ]);
  const plugins: RegistryEntry[] = [];
  const at = ctx.now().toISOString();
  for (const item of raw.plugins) {
    const e = item as Record<string, unknown>;
    const name = e.name as string;
    const pluginRoot = join(root, name);
    const recorded = (e.copiedFiles as { relativePath: string; sha256: string; bytes: number }[]).map((f) => ({
      relativePath: f.relativePath,
      sha256: f.sha256,
      bytes: f.bytes,
    }));
    const quarantine: QuarantineRecord[] = [...((e.quarantine as QuarantineRecord[] | undefined) ?? [])];
    const whole = (message: string) =>
      quarantine.push({ surfaceId: `plugin:${name}`, code: "runtime_mismatch", message, detectedAt: at });
    let entry: RegistryEntry = {
      name,
      version: e.version as string,
      scope,
      enabled: e.enabled as boolean,
      dir: name,
      pluginRoot,
      manifestPath: join(pluginRoot, "gajae-plugin.json"),
      manifestHash: e.manifestHash as string,
      source: sourceOf(e.source as Record<string, unknown>),
      installedAt: e.installedAt as string,
      updatedAt: e.updatedAt as string,
      // Modes as found: the agent records none, so only paths, sizes and hashes are held to the record.
      copiedFiles: recorded.map((f) => ({ ...f, mode: 0 })),
      surfaces: emptySurfaces(),
      disabledSurfaceIds: [...(e.disabledSurfaceIds as string[])].sort(),
    };
    try {
      const { bundle } = await compileForInstall(pluginRoot, { keepContents: false });
      const byPath = new Map(bundle.files.map((f) => [f.path, f]));
      const same =
        bundle.name === name &&
        bundle.manifestSha256 === entry.manifestHash &&
        bundle.files.length === recorded.length &&
        recorded.every(
          (f) => byPath.get(f.relativePath)?.sha256 === f.sha256 && byPath.get(f.relativePath)?.bytes === f.bytes,
        );
      if (!same)
        whole(
          `The installed copy of ${name} is not what the GJC agent's registry records (its manifest or files differ).`,
        );
      entry = {
        ...entry,
        version: bundle.version,
        copiedFiles: bundle.files.map((f) => ({
          relativePath: f.path,
          sha256: f.sha256,
          bytes: f.bytes,
          mode: f.mode,
        })),
        surfaces: registrySurfaces(bundle),
      };
    } catch (error) {
      whole(
        `The installed copy of ${name} does not pass gjc's checks${isGjcError(error) ? ` (${error.code})` : ""}; nothing of it is loaded.`,
      );
    }
    if (quarantine.length > 0) entry.quarantine = quarantine;
    plugins.push(entry);
  }
  return { version: 1, scope, plugins };
}
