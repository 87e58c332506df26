import { parseStateJson } from "../store/state-file.ts";
import { unsafeGjcScope, unsafeScopePath } from "../store/scope-path.ts";
import { registryMac, sameMac, stateKey } from "../store/state-mac.ts";
import type { Context } from "../core/context.ts";
import { readRegistryFile } from "./registry-file.ts";
import { join } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { GJC_LIMITS } from "../bundle/limits.ts";
import { relativePathProblem } from "../bundle/path-safety.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { CONTENT_DIR, lastGoodPath, registryPath } from "../families/gjc/layout.ts";
import { writeListIndex } from "./list-index.ts";
import { summarize } from "./summary.ts";
import { documentProblem } from "../store/document-problem.ts";
import { isReferenceRegistry } from "./reference-registry.ts";
import { Registry } from "./disk-schemas.generated.ts";
import { type RegistryEntry, type Scope, type ScopeRegistry } from "./registry-types.ts";

const REFERENCE_PROBLEM =
  "it is the GJC agent's registry (its own shape, no gjc signature): read for list and session, never changed by gjc";

export type RegistryRead =
  | { ok: true; registry: ScopeRegistry; exists: boolean }
  | { ok: false; path: string; problem: string; unsafePath?: true; foreign?: true; reference?: { plugins: unknown[] } };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The rules of one entry a schema cannot say: a registry we did not write (edited by hand or
 * by an attacker) must not be able to point uninstall or verify outside the scope. The shape,
 * counts and sizes are registry-schema.ts, checked before. Returns the first problem, or undefined.
 */
function entryProblem(e: RegistryEntry, scope: Scope, i: number): string | undefined {
  // Messages are built only on failure: a registry of 100 entries is checked at every
  // session start, and nearly always nothing is wrong.
  const at = `plugins[${i}]`;
  const where = (j: number) => `(at /plugins/${i}/copiedFiles/${j}/relativePath)`;
  if (e.scope !== scope) return `${at}.scope is not "${scope}" (at /plugins/${i}/scope)`;
  // The stored absolute paths are never trusted, only their shape: they are derived again from
  // this root and the checked dir, so a scope copied or moved by its user keeps working and no
  // entry can point outside its root.
  if (CONTENT_DIR.exec(e.dir)![1] !== e.name)
    return `${at}.dir ${JSON.stringify(e.dir)} is not a content directory of "${e.name}" (at /plugins/${i}/dir)`;
  let totalBytes = 0;
  const seen = new Set<string>();
  const maxPath = GJC_LIMITS.maxPathBytes ?? 1024;
  for (const [j, f] of e.copiedFiles.entries()) {
    const rel = f.relativePath;
    const problem = relativePathProblem(rel);
    if (problem) return `${at}.copiedFiles[${j}] path ${JSON.stringify(rel.slice(0, 200))} ${problem} ${where(j)}`;
    if (rel.length > maxPath) return `${at}.copiedFiles[${j}] path is longer than an installed path may be ${where(j)}`;
    if (seen.has(rel)) return `${at}.copiedFiles lists ${JSON.stringify(rel)} twice ${where(j)}`;
    seen.add(rel);
    totalBytes += f.bytes;
    if (totalBytes > GJC_LIMITS.maxTotalBytes)
      return `${at}.copiedFiles add up to more bytes than an install may hold (at /plugins/${i}/copiedFiles)`;
  }
  if (e.copiedFiles[0].relativePath !== "gajae-plugin.json")
    return `${at}.copiedFiles does not start with the manifest (at /plugins/${i}/copiedFiles/0)`;
  return undefined;
}

/**
 * registry.json as gjc writes it: this head, the JSON of the entries (the text the MAC covers),
 * then `,"mac":"hmac-sha256:<64 hex>"}` and a newline. The signature is checked on those exact
 * bytes: nothing parsed is serialised again to check it.
 */
const signedHead = (scope: Scope) => `{"version":1,"scope":"${scope}","plugins":`;
const SIGNED_TAIL = /^,"mac":"hmac-sha256:[0-9a-f]{64}"\}\n$/;
const SIGNED_TAIL_LENGTH = ',"mac":"hmac-sha256:'.length + 64 + '"}\n'.length;

/** The text of the entries the MAC covers, or undefined when the file is not laid out as gjc writes it. */
function signedText(text: string, scope: Scope): string | undefined {
  const head = signedHead(scope);
  if (!text.startsWith(head) || !SIGNED_TAIL.test(text.slice(-SIGNED_TAIL_LENGTH))) return undefined;
  return text.slice(head.length, text.length - SIGNED_TAIL_LENGTH);
}

/** Parses and checks registry text; never throws. */
export function parseRegistry(
  text: string,
  root: string,
  scope: Scope,
):
  | { registry: ScopeRegistry; mac: unknown; signed: string | undefined }
  | { problem: string; reference?: { plugins: unknown[] } } {
  // Bounded like bundle JSON (src/store/state-file.ts): a registry nested 200,000 deep is damaged, not a crash.
  const json = parseStateJson(text);
  if (!json.ok) return { problem: json.problem };
  const raw = json.value;
  if (!isObject(raw)) return { problem: "it is not a JSON object" };
  // A newer gjc's registry, or another scope's, is named as such rather than field by field.
  if (raw.version !== 1) return { problem: `its version is ${JSON.stringify(raw.version)}, not 1` };
  if (raw.scope !== scope) return { problem: `it belongs to scope ${JSON.stringify(raw.scope)}, not "${scope}"` };
  const shapeProblem = documentProblem(Registry, raw);
  if (shapeProblem !== undefined) {
    // The reference GJC agent's own shape: readable (reference-registry.ts), never gjc's.
    if (isReferenceRegistry(raw, scope))
      return { problem: REFERENCE_PROBLEM, reference: raw as { plugins: unknown[] } };
    return { problem: shapeProblem };
  }
  const names = new Set<string>();
  for (const [i, e] of (raw.plugins as RegistryEntry[]).entries()) {
    const problem = entryProblem(e, scope, i);
    if (problem) return { problem };
    if (names.has(e.name)) return { problem: `"${e.name}" is listed twice (at /plugins/${i}/name)` };
    names.add(e.name);
  }
  const plugins = (raw.plugins as RegistryEntry[]).map((e) => ({
    ...e,
    pluginRoot: join(root, e.dir),
    manifestPath: join(root, e.dir, "gajae-plugin.json"),
  }));
  return {
    registry: { version: 1, scope, plugins: sortEntries(plugins) },
    mac: raw.mac,
    signed: signedText(text, scope),
  };
}

/**
 * Whether a parsed registry carries this user's MAC (src/store/state-mac.ts); the problem
 * otherwise. Without a key (none made yet, or it cannot be trusted) nothing signed is ours.
 */
export function foreignProblem(
  ctx: Context,
  parsed: { mac: unknown; signed: string | undefined },
  scope: Scope,
): string | undefined {
  if (parsed.mac === undefined) {
    // An unsigned user scope is what gjc wrote before signatures: it lives in the user's own
    // home, where no repository or other user can put it, so it is read and signed on its next
    // write. An unsigned project scope may have come with a clone: foreign until adopted.
    if (scope === "user") return undefined;
    return "it carries no gjc signature (written by another tool or an older gjc, or it came with the repository)";
  }
  // Signed, but not laid out as gjc writes it: reformatted by hand or a tool, or indented by
  // an older gjc (whose user "doctor --fix --adopt" signs it again).
  if (parsed.signed === undefined)
    return "its signature does not cover the file as it is laid out (it was reformatted or edited)";
  let key: Uint8Array | undefined;
  try {
    key = stateKey(ctx, false);
  } catch (error) {
    return isGjcError(error) ? error.message : "the state key cannot be read";
  }
  if (key === undefined || !sameMac(parsed.mac, registryMac(key, scope, parsed.signed)))
    return "its signature is not this user's (it was written elsewhere, by another user, or edited)";
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
  // A project's .gjc or .gjc/gjc-plugins that is a link, another user's or world-writable is never read (src/store/scope-path.ts).
  const unsafe = unsafeGjcScope(root, scope);
  if (unsafe !== undefined) return { ok: false, path, problem: unsafe, unsafePath: true };
  const file = readRegistryFile(root);
  if (!file.ok) return { ok: false, path, problem: file.problem };
  if (file.text === undefined) return { ok: true, exists: false, registry: { version: 1, scope, plugins: [] } };
  return registryFromText(file.text, root, scope, ctx);
}

/** A registry.json's text judged: parsed, checked against its schema and rules, and signed for this user. */
export function registryFromText(text: string, root: string, scope: Scope, ctx: Context): RegistryRead {
  const path = registryPath(root);
  const parsed = parseRegistry(text, root, scope);
  if ("problem" in parsed)
    return parsed.reference
      ? { ok: false, path, problem: parsed.problem, foreign: true, reference: parsed.reference }
      : { ok: false, path, problem: parsed.problem };
  const foreign = foreignProblem(ctx, parsed, scope);
  if (foreign !== undefined) return { ok: false, path, problem: foreign, foreign: true };
  return { ok: true, exists: true, registry: parsed.registry };
}

export function registryCorrupt(scope: Scope, path: string, problem: string): GjcError {
  return new GjcError({
    code: "registry_corrupt",
    message: `The GJC ${scope} registry ${path} is corrupt or was edited: ${problem}. Nothing in the ${scope} scope is changed or loaded until it is repaired.`,
    hint: 'Run "gjc plugin doctor" to see the damage, and "gjc plugin doctor --fix" to restore the last good copy.',
    details: { scope, path, problem },
    exit: ExitCode.refused,
  });
}

/** Reads a scope registry; a corrupt one fails the scope closed. */
export function readRegistry(root: string, scope: Scope, ctx: Context): ScopeRegistry {
  const read = tryReadRegistry(root, scope, ctx);
  if (!read.ok)
    throw read.unsafePath
      ? unsafeScopePath(`the ${scope} scope`, read.problem)
      : read.foreign
        ? foreignScope(scope, read.path, read.problem)
        : registryCorrupt(scope, read.path, read.problem);
  return read.registry;
}

const scopeRank = (s: Scope) => (s === "user" ? 0 : 1);

/** Registry order (notes §4.2): scope, then name, then root. Code-unit order keeps it locale-free. */
export function sortEntries(entries: RegistryEntry[]): RegistryEntry[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...entries].sort(
    (a, b) => scopeRank(a.scope) - scopeRank(b.scope) || cmp(a.name, b.name) || cmp(a.pluginRoot, b.pluginRoot),
  );
}

/** registry.json's text, signed with the user's state key (made on the first write). */
export function serializeRegistry(registry: ScopeRegistry, ctx: Context): string {
  const plugins = JSON.stringify(sortEntries(registry.plugins));
  const key = stateKey(ctx, true) as Uint8Array;
  // Compact: nobody edits it by hand (the MAC makes any edit foreign), and every session start
  // reads and parses it whole (a third smaller than indented).
  return `${signedHead(registry.scope)}${plugins},"mac":"${registryMac(key, registry.scope, plugins)}"}\n`;
}

/**
 * The one writer of registry.json (install, uninstall, enable, verify's quarantine, sync and
 * rollback, doctor's restore of the last good copy all commit through it). Commits a
 * registry: the atomic rename of registry.json (fsync'ed, then its directory) is the
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
