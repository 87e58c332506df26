/** Reading and writing `plugins.lock.json`: closed schema on read, one stable byte form on write. */
import { mkdirSync } from "node:fs";
import { DuplicateKeyError, parseBoundedJson } from "../bundle/json.ts";
import { GJC_LIMITS } from "../bundle/limits.ts";
import { readStateText, type StateText } from "../store/state-file.ts";
import { dirname } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "../install/registry-types.ts";
import { PluginsLock } from "../store/disk-schemas.generated.ts";
import { documentProblem } from "../store/document-problem.ts";
import { byNameFamily } from "./installed.ts";
import { lockGrantsProblem, orderedGrants } from "./grants.ts";
import type { LockEntry, LockFile, LockSource } from "../store/plugins-lock-schema.ts";

function orderedSource(s: LockSource): LockSource {
  const out: LockSource = { kind: s.kind };
  for (const k of ["path", "url", "repository", "ref", "subpath"] as const) if (s[k] !== undefined) out[k] = s[k];
  if (s.catalog)
    out.catalog = {
      path: s.catalog.path,
      ...(s.catalog.name !== undefined ? { name: s.catalog.name } : {}),
      entry: s.catalog.entry,
    };
  return out;
}

/** One entry with its keys in the documented order (so the file diffs line by line). */
export function orderedEntry(e: LockEntry): LockEntry {
  const out: LockEntry = {
    name: e.name,
    family: e.family,
    version: e.version,
    source: orderedSource(e.source),
    pin:
      e.pin.commit !== undefined
        ? { commit: e.pin.commit }
        : e.pin.sha256 !== undefined
          ? { sha256: e.pin.sha256 }
          : {},
    integrity: e.integrity,
    files: e.files,
    enabled: e.enabled,
    disabledSurfaces: [...e.disabledSurfaces].sort(),
  };
  if (e.log)
    out.log = {
      origin: e.log.origin,
      key: e.log.key,
      checkpoint: e.log.checkpoint,
      index: e.log.index,
      leaf: e.log.leaf,
      proof: [...e.log.proof],
    };
  if (e.c2) out.c2 = { trusted: e.c2.trusted };
  if (e.grants) out.grants = orderedGrants(e.grants);
  if (e.signer !== undefined) out.signer = e.signer;
  return out;
}

/** The lock's bytes: sorted entries, fixed key order, two-space indent, trailing newline. */
export function serializeLock(lock: LockFile): string {
  const { $schema: _s, lockfileVersion: _v, scope, bundles, c2Policy, ...extra } = lock;
  const policy =
    c2Policy && c2Policy.length > 0
      ? {
          c2Policy: [...c2Policy]
            .sort((a, b) => (a.name < b.name ? -1 : 1))
            .map((p) => ({
              name: p.name,
              state: p.state,
              components: Object.fromEntries(
                Object.keys(p.components)
                  .sort()
                  .map((k) => [k, p.components[k]]),
              ),
            })),
        }
      : {};
  const doc = {
    lockfileVersion: 1,
    scope,
    bundles: [...bundles].sort(byNameFamily).map(orderedEntry),
    ...policy,
    ...extra,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Writes a lock atomically; the bytes are checked against the schema first, so gjc never writes a lock it would refuse. */
export function writeLockFile(path: string, lock: LockFile): void {
  const text = serializeLock(lock);
  parseLock(text, path, lock.scope);
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  writeFileAtomic(path, text);
}

function invalidLock(path: string, problem: string): GjcError {
  return new GjcError({
    code: "invalid_lock",
    message: `The lock file ${path} is not a valid plugins lock: ${problem}.`,
    hint: "Restore it from version control, or write a new one from the installed state with gjc plugin lock.",
    details: { path, problem },
    exit: ExitCode.failed,
  });
}

/**
 * A lock names sources, pins and digests, about a kilobyte a bundle: one larger than a bundle's
 * JSON file may be (GJC_LIMITS.maxFileBytes) was not written by gjc and is refused before it is read.
 */
export const MAX_LOCK_BYTES = GJC_LIMITS.maxFileBytes;

/** Reads and checks a lock; undefined when there is none. */
export function readLockFile(path: string, scope?: Scope): LockFile | undefined {
  let read: StateText;
  try {
    // A project lock arrives with the repository, so it is judged by its content, not its owner.
    read = readStateText(path, { owned: false, maxBytes: MAX_LOCK_BYTES });
  } catch (error) {
    if (isGjcError(error) && error.code === "file_too_large")
      throw invalidLock(path, `it is larger than a lock may be (${MAX_LOCK_BYTES} bytes)`);
    throw invalidLock(path, `it cannot be read (${isGjcError(error) ? error.message : "error"})`);
  }
  if (read.kind === "missing") return undefined;
  if (read.kind === "foreign") throw invalidLock(path, read.problem);
  return parseLock(read.text, path, scope);
}

export function parseLock(text: string, path: string, scope?: Scope): LockFile {
  let raw: unknown;
  try {
    // A project lock arrives with a clone: bounded like bundle JSON, and a repeated key is
    // refused (a reviewer's diff and gjc would otherwise read different sources).
    raw = parseBoundedJson(text);
  } catch (error) {
    throw invalidLock(path, error instanceof DuplicateKeyError ? error.message : "it is not valid JSON");
  }
  // The generated check (src/sets/disk-schemas.generated.ts): TypeBox is loaded only to name the bad field.
  const problem = documentProblem(PluginsLock, raw);
  if (problem !== undefined) throw invalidLock(path, problem);
  const lock = raw as LockFile;
  if (scope !== undefined && lock.scope !== scope)
    throw invalidLock(path, `it is the lock of the ${lock.scope} scope, not the ${scope} scope`);
  if (lock.c2Policy !== undefined && lock.scope !== "project")
    throw invalidLock(path, "c2Policy belongs to a project lock (C2 policy is set per project)");
  const policies = new Set<string>();
  for (const p of lock.c2Policy ?? []) {
    if (policies.has(p.name)) throw invalidLock(path, `the C2 policy of ${p.name} is listed twice`);
    policies.add(p.name);
  }
  const seen = new Set<string>();
  for (const e of lock.bundles) {
    const key = `${e.family}:${e.name}`;
    if (seen.has(key)) throw invalidLock(path, `${e.family} bundle ${e.name} is listed twice`);
    seen.add(key);
    const grants = e.grants ? lockGrantsProblem(lock.scope, e) : undefined;
    if (grants !== undefined) throw invalidLock(path, grants);
  }
  return lock;
}
