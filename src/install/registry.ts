import { gjcTrustedBase, linkOnScopePath, unsafeScopePath } from "../store/scope-path.ts";
import { registryMac, sameMac, stateKey } from "../store/state-mac.ts";
import type { Context } from "../core/context.ts";
import { lstatSync } from "node:fs";
import { readRegularFile } from "../bundle/read-file.ts";
import { join } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { GJC_LIMITS } from "../bundle/limits.ts";
import { relativePathProblem } from "../bundle/path-safety.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { CONTENT_DIR, lastGoodPath, MAX_REGISTRY_BYTES, registryPath } from "./layout.ts";
import { writeListIndex } from "./list-index.ts";
import { summarize } from "./summary.ts";
import { SURFACE_GROUPS, type RegistryEntry, type Scope, type ScopeRegistry } from "./registry-types.ts";

const SHA256 = /^[0-9a-f]{64}$/;
const NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$/;
const GROUPS = Object.values(SURFACE_GROUPS);

export type RegistryRead =
  | { ok: true; registry: ScopeRegistry; exists: boolean }
  | { ok: false; path: string; problem: string; unsafePath?: true; foreign?: true };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks one entry against the scope root: a registry we did not write (edited by hand or by
 * an attacker) must not be able to point uninstall or verify outside the scope. Returns the
 * first problem found, or undefined.
 */
function entryProblem(e: unknown, root: string, scope: Scope, i: number): string | undefined {
  const at = `plugins[${i}]`;
  if (!isObject(e)) return `${at} is not an object`;
  if (typeof e.name !== "string" || !NAME.test(e.name)) return `${at}.name is not a valid bundle name`;
  if (e.scope !== scope) return `${at}.scope is not "${scope}"`;
  if (typeof e.version !== "string" || typeof e.enabled !== "boolean") return `${at} has no version or enabled flag`;
  if (typeof e.dir !== "string") return `${at}.dir is missing`;
  const m = CONTENT_DIR.exec(e.dir);
  if (!m || m[1] !== e.name) return `${at}.dir ${JSON.stringify(e.dir)} is not a content directory of "${e.name}"`;
  // The stored absolute paths are never trusted, only their shape: they are derived again from
  // this root and the checked dir, so a scope copied or moved by its user keeps working and no
  // entry can point outside its root.
  if (typeof e.pluginRoot !== "string" || typeof e.manifestPath !== "string") return `${at}.pluginRoot or manifestPath is missing`;
  if (typeof e.manifestHash !== "string" || !SHA256.test(e.manifestHash)) return `${at}.manifestHash is not a SHA-256`;
  if (!isObject(e.source) || typeof e.source.kind !== "string") return `${at}.source is missing`;
  if (!Array.isArray(e.copiedFiles) || e.copiedFiles.length === 0) return `${at}.copiedFiles is empty`;
  // No install holds more than the GJC budgets allow: an entry claiming more was not written by us.
  if (e.copiedFiles.length > GJC_LIMITS.maxFiles) return `${at}.copiedFiles lists ${e.copiedFiles.length} files, more than an install may hold (${GJC_LIMITS.maxFiles})`;
  let totalBytes = 0;
  const seen = new Set<string>();
  const files = e.copiedFiles as unknown[];
  // A plain loop with cheap checks first: list reads every entry of every file on each start.
  for (let j = 0; j < files.length; j++) {
    const f = files[j];
    if (!isObject(f) || typeof f.relativePath !== "string") return `${at}.copiedFiles[${j}] has no path`;
    const rel = f.relativePath;
    const problem = relativePathProblem(rel);
    if (problem) return `${at}.copiedFiles[${j}] path ${JSON.stringify(rel.slice(0, 200))} ${problem}`;
    if (seen.has(rel)) return `${at}.copiedFiles lists ${JSON.stringify(rel)} twice`;
    seen.add(rel);
    if (typeof f.sha256 !== "string" || !SHA256.test(f.sha256)) return `${at}.copiedFiles[${j}].sha256 is not a SHA-256`;
    const bytes = f.bytes as number;
    if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes < 0) return `${at}.copiedFiles[${j}].bytes is not a size`;
    if (bytes > GJC_LIMITS.maxFileBytes) return `${at}.copiedFiles[${j}].bytes is ${bytes}, more than one installed file may hold`;
    totalBytes += bytes;
    if (totalBytes > GJC_LIMITS.maxTotalBytes) return `${at}.copiedFiles add up to more bytes than an install may hold`;
    if (rel.length > (GJC_LIMITS.maxPathBytes ?? 1024)) return `${at}.copiedFiles[${j}] path is longer than an installed path may be`;
    const mode = f.mode as number;
    if (typeof mode !== "number" || !Number.isInteger(mode) || mode < 0 || mode > 0o777) return `${at}.copiedFiles[${j}].mode is not a permission mode`;
  }
  if ((e.copiedFiles[0] as { relativePath: string }).relativePath !== "gajae-plugin.json") return `${at}.copiedFiles does not start with the manifest`;
  if (!isObject(e.surfaces)) return `${at}.surfaces is missing`;
  for (const g of GROUPS) {
    const list = e.surfaces[g];
    if (!Array.isArray(list)) return `${at}.surfaces.${g} is not a list`;
    for (const s of list) if (!isObject(s) || typeof s.extensionId !== "string" || typeof s.kind !== "string") return `${at}.surfaces.${g} holds a surface without an id`;
  }
  if (!Array.isArray(e.disabledSurfaceIds) || e.disabledSurfaceIds.some((x) => typeof x !== "string")) return `${at}.disabledSurfaceIds is not a list of ids`;
  if (e.quarantine !== undefined) {
    if (!Array.isArray(e.quarantine)) return `${at}.quarantine is not a list`;
    for (const q of e.quarantine) if (!isObject(q) || typeof q.surfaceId !== "string" || typeof q.code !== "string") return `${at}.quarantine holds a malformed record`;
  }
  return undefined;
}

/** Parses and checks registry text; never throws. */
export function parseRegistry(text: string, root: string, scope: Scope): { registry: ScopeRegistry; mac: unknown; signed: unknown } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { problem: "it is not valid JSON" };
  }
  if (!isObject(raw)) return { problem: "it is not a JSON object" };
  if (raw.version !== 1) return { problem: `its version is ${JSON.stringify(raw.version)}, not 1` };
  if (raw.scope !== scope) return { problem: `it belongs to scope ${JSON.stringify(raw.scope)}, not "${scope}"` };
  if (!Array.isArray(raw.plugins)) return { problem: "plugins is not a list" };
  const names = new Set<string>();
  for (const [i, e] of raw.plugins.entries()) {
    const problem = entryProblem(e, root, scope, i);
    if (problem) return { problem };
    const name = (e as RegistryEntry).name;
    if (names.has(name)) return { problem: `"${name}" is listed twice` };
    names.add(name);
  }
  const plugins = (raw.plugins as RegistryEntry[]).map((e) => ({ ...e, pluginRoot: join(root, e.dir), manifestPath: join(root, e.dir, "gajae-plugin.json") }));
  return { registry: { version: 1, scope, plugins: sortEntries(plugins) }, mac: raw.mac, signed: raw.plugins };
}

/**
 * Whether a parsed registry carries this user's MAC (src/store/state-mac.ts); the problem
 * otherwise. Without a key (none made yet, or it cannot be trusted) nothing signed is ours.
 */
export function foreignProblem(ctx: Context, parsed: { mac: unknown; signed: unknown }, scope: Scope): string | undefined {
  if (parsed.mac === undefined) {
    // An unsigned user scope is what gjc wrote before signatures: it lives in the user's own
    // home, where no repository or other user can put it, so it is read and signed on its next
    // write. An unsigned project scope may have come with a clone: foreign until adopted.
    if (scope === "user") return undefined;
    return "it carries no gjc signature (written by another tool or an older gjc, or it came with the repository)";
  }
  let key: Uint8Array | undefined;
  try {
    key = stateKey(ctx, false);
  } catch (error) {
    return isGjcError(error) ? error.message : "the state key cannot be read";
  }
  if (key === undefined || !sameMac(parsed.mac, registryMac(key, scope, parsed.signed))) return "its signature is not this user's (it was written elsewhere, by another user, or edited)";
  return undefined;
}

export function foreignScope(scope: Scope, path: string, problem: string): GjcError {
  const project = scope === "project";
  return new GjcError({
    code: "foreign_scope",
    message: `The GJC ${scope} scope ${path} was not written by gjc for you: ${problem}. Nothing in it is loaded, run, upgraded or deleted.`,
    hint: project
      ? 'Installed state is machine-local and never shared: delete .gjc/gjc-plugins, then install again or run "gjc plugin sync --project" to install what the project\'s lock (.gjc/plugins.lock.json) names. If an older gjc wrote it for you, adopt it with "gjc plugin doctor --fix --adopt".'
      : 'If an older gjc wrote it for you, adopt it with "gjc plugin doctor --fix --adopt"; otherwise move it away and install again.',
    details: { scope, path, problem },
    exit: ExitCode.refused,
  });
}

/** Reads a scope registry without throwing: a missing file is an empty registry. */
export function tryReadRegistry(root: string, scope: Scope, ctx: Context): RegistryRead {
  const path = registryPath(root);
  // A project's .gjc or .gjc/gjc-plugins that is a link is never read through (src/store/scope-path.ts).
  const link = linkOnScopePath(gjcTrustedBase(root, scope), root);
  if (link !== undefined) return { ok: false, path, problem: `${link}; gjc never follows links inside a project`, unsafePath: true };
  let text: string;
  try {
    text = readBounded(path);
  } catch (error) {
    if (isGjcError(error) && error.code !== "missing_file") {
      return { ok: false, path, problem: error.code === "file_too_large" ? `registry.json is larger than gjc ever writes (${MAX_REGISTRY_BYTES} bytes)` : error.message };
    }
    const code = isGjcError(error) ? "ENOENT" : (error as NodeJS.ErrnoException).code;
    // ENOTDIR: the scope root (or a parent) is a file; there is no registry, and a write there
    // reports not_a_directory with the file named (src/core/os-errors.ts).
    if (code === "ENOENT" || code === "ENOTDIR") {
      // registry.json gone while its last good copy is there: not an empty scope. Treating it
      // as one would let the next command sweep every content directory as an orphan.
      if (code === "ENOENT" && hasLastGood(root)) return { ok: false, path, problem: "registry.json is missing while its last good copy is beside it (restore it with doctor --fix)" };
      return { ok: true, exists: false, registry: { version: 1, scope, plugins: [] } };
    }
    return { ok: false, path, problem: `it could not be read (${code ?? "error"})` };
  }
  const parsed = parseRegistry(text, root, scope);
  if ("problem" in parsed) return { ok: false, path, problem: parsed.problem };
  const foreign = foreignProblem(ctx, parsed, scope);
  if (foreign !== undefined) return { ok: false, path, problem: foreign, foreign: true };
  return { ok: true, exists: true, registry: parsed.registry };
}

/** The registry's text, read without following a link and never more than MAX_REGISTRY_BYTES into memory. */
function readBounded(path: string): string {
  return new TextDecoder().decode(readRegularFile(path, MAX_REGISTRY_BYTES, "registry.json").bytes);
}

function hasLastGood(root: string): boolean {
  try {
    return lstatSync(lastGoodPath(root)).isFile();
  } catch {
    return false;
  }
}

export function registryCorrupt(scope: Scope, path: string, problem: string): GjcError {
  return new GjcError({
    code: "registry_corrupt",
    message: `The GJC ${scope} registry ${path} is corrupt or was edited: ${problem}. Nothing in the ${scope} scope is changed or loaded until it is repaired.`,
    hint: "Run \"gjc plugin doctor\" to see the damage, and \"gjc plugin doctor --fix\" to restore the last good copy.",
    details: { scope, path, problem },
    exit: ExitCode.refused,
  });
}

/** Reads a scope registry; a corrupt one fails the scope closed. */
export function readRegistry(root: string, scope: Scope, ctx: Context): ScopeRegistry {
  const read = tryReadRegistry(root, scope, ctx);
  if (!read.ok) throw read.unsafePath ? unsafeScopePath(`the ${scope} scope`, read.problem) : read.foreign ? foreignScope(scope, read.path, read.problem) : registryCorrupt(scope, read.path, read.problem);
  return read.registry;
}

const scopeRank = (s: Scope) => (s === "user" ? 0 : 1);

/** Registry order (notes §4.2): scope, then name, then root. Code-unit order keeps it locale-free. */
export function sortEntries(entries: RegistryEntry[]): RegistryEntry[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...entries].sort((a, b) => scopeRank(a.scope) - scopeRank(b.scope) || cmp(a.name, b.name) || cmp(a.pluginRoot, b.pluginRoot));
}

/** registry.json's text, signed with the user's state key (made on the first write). */
export function serializeRegistry(registry: ScopeRegistry, ctx: Context): string {
  const plugins = JSON.parse(JSON.stringify(sortEntries(registry.plugins))) as unknown;
  const key = stateKey(ctx, true) as Uint8Array;
  return `${JSON.stringify({ version: 1, scope: registry.scope, plugins, mac: registryMac(key, registry.scope, plugins) }, null, 2)}\n`;
}

/**
 * Commits a registry: the atomic rename of registry.json (fsync'ed, then its directory) is the
 * single commit point of every change to a scope. The same bytes then become the last good
 * copy (not fsync'ed: it is a backup of what was just made durable), which doctor restores if
 * registry.json is later damaged (a crash between the two writes leaves a last good copy one
 * step behind, which doctor reconciles like any other stale state).
 */
export function writeRegistry(root: string, registry: ScopeRegistry, ctx: Context, afterCommit?: () => void): void {
  const text = serializeRegistry(registry, ctx);
  writeFileAtomic(registryPath(root), text);
  afterCommit?.();
  writeFileAtomic(lastGoodPath(root), text, { durable: false });
  writeListIndex(root, registry.scope, sortEntries(registry.plugins).map(summarize), ctx);
}
