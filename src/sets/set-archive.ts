/**
 * A set archive (`gjc plugin lock --export <set.tgz>`, `gjc plugin sync --from <set.tgz>`): the
 * lock and the content of every entry as one deterministic .tgz, for machines without network.
 *
 *   plugins.lock.json                       the lock, as serialized by gjc
 *   content/<integrity hex>/entry.json      the entry's (path, mode, sha256, bytes) list
 *   content/<integrity hex>/files/<path>    its files
 *
 * Deterministic: entries sorted by path, written by the pack tar writer (fixed mtime, owner,
 * modes normalized to 0644/0755), gzip OS byte pinned. Tar keeps only the execute bit, so the
 * exact modes travel in entry.json; on import every entry is judged by the hostile-archive
 * rules of any tarball (src/sources/tar), then each file's bytes are hashed and the integrity
 * recomputed from (path, recorded mode, sha256) must be the lock's.
 */
import { chmodSync, lstatSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha256Hex } from "../bundle/hash.ts";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { GJC_LIMITS, type BundleLimits } from "../bundle/limits.ts";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { scratchParent } from "../sources/scratch.ts";
import type { Scope } from "../install/registry-types.ts";
import { entryProblem, putCacheEntry, usableCacheEntry, type CacheEntry } from "../store/cache.ts";
import { diskProblems } from "../store/disk-check.ts";
import { installedBundles } from "./installed.ts";
import { integrityHex, integrityOf } from "../store/integrity.ts";
import { noLock } from "./lock.ts";
import { parseLock, readLockFile, serializeLock } from "./lock-file.ts";
import type { LockFile } from "../store/plugins-lock-schema.ts";
import { LOCK_NAME, lockPath } from "../store/set-paths.ts";
import type { SyncOptions, SyncResult } from "./sync.ts";
import { readStateJson } from "../store/state-file.ts";

const GZIP_OS_UNIX = 3;
const MiB = 1024 * 1024;

/** A set holds many bundles: the GJC per-file rules, with room for a team's whole set. */
export const SET_LIMITS: BundleLimits = {
  ...GJC_LIMITS,
  maxFiles: 32_768,
  maxTotalBytes: 512 * MiB,
  maxDepth: GJC_LIMITS.maxDepth + 3,
  maxPathBytes: 1200,
};

export interface ExportResult {
  scope: Scope;
  path: string;
  sha256: string;
  bytes: number;
  bundles: number;
  files: number;
}

/** Every entry's content, from the cache, or from the installed bundle when it is whole and matches. */
async function entriesOf(ctx: Context, scope: Scope, lock: LockFile): Promise<{ entry: CacheEntry; dir: string }[]> {
  const installed = await installedBundles(ctx, scope);
  const out: { entry: CacheEntry; dir: string }[] = [];
  const missing: string[] = [];
  for (const e of lock.bundles) {
    let got = usableCacheEntry(ctx, e.integrity);
    if (!got) {
      const b = installed.find(
        (x) => x.entry.family === e.family && x.entry.name === e.name && x.entry.integrity === e.integrity,
      );
      if (b && diskProblems(b).length === 0) {
        putCacheEntry(ctx, { name: e.name, family: e.family, version: e.version, files: b.files }, b.root);
        got = usableCacheEntry(ctx, e.integrity);
      }
    }
    if (got) out.push(got);
    else missing.push(e.name);
  }
  if (missing.length > 0) {
    throw new GjcError({
      code: "set_incomplete",
      message: `The content of ${missing.join(", ")} is neither in the content cache nor installed here as the lock pins it, so the set cannot be exported.`,
      hint: `Run "gjc plugin sync --${scope}" first (it fetches the pinned content), then export again.`,
      details: { missing },
      exit: ExitCode.failed,
    });
  }
  return out;
}

export async function exportSet(ctx: Context, scope: Scope, output: string): Promise<ExportResult> {
  const path = lockPath(ctx, scope);
  const lock = readLockFile(path, scope);
  if (!lock) throw noLock(path, scope);
  const { writeTar } = await import("../authoring/tar-writer.ts");
  const inputs: { path: string; bytes: Uint8Array; executable: boolean }[] = [
    { path: LOCK_NAME, bytes: Buffer.from(serializeLock(lock)), executable: false },
  ];
  let files = 0;
  const seen = new Set<string>();
  for (const { entry, dir } of await entriesOf(ctx, scope, lock)) {
    const base = `content/${integrityHex(entry.integrity)}`;
    if (seen.has(base)) continue;
    seen.add(base);
    const meta = {
      integrity: entry.integrity,
      name: entry.name,
      family: entry.family,
      version: entry.version,
      files: entry.files,
    };
    inputs.push({
      path: `${base}/entry.json`,
      bytes: Buffer.from(`${JSON.stringify(meta, null, 2)}\n`),
      executable: false,
    });
    for (const f of entry.files) {
      inputs.push({
        path: `${base}/files/${f.path}`,
        bytes: readFileSync(join(dir, f.path)),
        executable: (f.mode & 0o111) !== 0,
      });
      files++;
    }
  }
  inputs.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const gz = Bun.gzipSync(writeTar(inputs) as Uint8Array<ArrayBuffer>, { level: 6 });
  gz[9] = GZIP_OS_UNIX;
  const out = resolve(ctx.cwd, output);
  writeFileAtomic(out, gz);
  return { scope, path: out, sha256: sha256Hex(gz), bytes: gz.length, bundles: lock.bundles.length, files };
}

export interface OpenedSet {
  lock: LockFile;
  /** The judged, extracted content dir of an integrity, with exact modes restored; undefined when the set lacks it or it does not match. */
  contentDir(integrity: string): string | undefined;
  cleanup(): Promise<void>;
}

function setError(path: string, message: string, details?: unknown): GjcError {
  return new GjcError({
    code: "set_integrity",
    message: `The set archive ${path} ${message}. Nothing was changed.`,
    hint: "Export the set again on a machine that has it (gjc plugin lock --export) and copy it unchanged.",
    details,
    exit: ExitCode.refused,
  });
}

/**
 * Opens a set archive: judged and extracted like any tarball into scratch (never into a
 * scope), the lock parsed, and every content entry checked against its digest before use.
 * A missing or damaged entry is set_integrity (exit 3).
 */
export async function openSet(ctx: Context, archive: string, scope: Scope): Promise<OpenedSet> {
  const { fetchTarball } = await import("../sources/fetch-tarball.ts");
  let got: Awaited<ReturnType<typeof fetchTarball>>;
  try {
    got = await fetchTarball(
      { file: archive },
      { scratchRoot: scratchParent(ctx), limits: SET_LIMITS, manifestNames: [LOCK_NAME] },
    );
  } catch (error) {
    // A corrupt or truncated archive is a damaged set; hostile entries keep their own (security_policy) refusal.
    if (error instanceof GjcError && (error.code === "invalid_archive" || error.code === "missing_file"))
      throw setError(archive, `cannot be read as a set (${error.message.replace(/\.$/, "")})`);
    throw error;
  }
  const cleanup = async () => (await import("node:fs")).rmSync(got.scratch, { recursive: true, force: true });
  try {
    const lock = parseLock(readFileSync(join(got.dir, LOCK_NAME), "utf8"), `${archive}:${LOCK_NAME}`, scope);
    const checked = new Map<string, string>();
    for (const e of lock.bundles) {
      const base = join(got.dir, "content", integrityHex(e.integrity));
      // Bounded like bundle JSON (src/store/state-file.ts): a set archive is a repository file.
      const read = readStateJson(ctx, join(base, "entry.json"));
      if (read.kind === "missing" || read.kind === "foreign")
        throw setError(archive, `has no content for ${e.name} (${e.integrity})`, {
          missing: e.name,
          integrity: e.integrity,
        });
      if (read.kind === "invalid")
        throw setError(archive, `holds a malformed entry.json for ${e.name} (${read.problem})`, {
          name: e.name,
          integrity: e.integrity,
          problem: read.problem,
        });
      const raw = read.value;
      const problem = entryProblem(raw);
      if (problem)
        throw setError(archive, `holds a malformed entry.json for ${e.name} (${problem})`, {
          name: e.name,
          integrity: e.integrity,
          problem,
        });
      const meta = raw as CacheEntry;
      if (integrityOf(meta.files) !== e.integrity)
        throw setError(archive, `holds a file list for ${e.name} that does not match its integrity`, {
          name: e.name,
          integrity: e.integrity,
        });
      const files = join(base, "files");
      for (const f of meta.files) {
        // Tar kept only the execute bit; the exact mode is entry.json's, which the integrity covers.
        const abs = join(files, f.path);
        try {
          if (lstatSync(abs).isFile()) chmodSync(abs, f.mode);
        } catch {
          // Missing: reported by the check below.
        }
      }
      const problems = diskProblems({ root: files, files: meta.files });
      if (problems.length > 0)
        throw setError(
          archive,
          `holds content for ${e.name} that does not match the lock (${problems
            .slice(0, 3)
            .map((p) => `${p.kind}:${p.path}`)
            .join(", ")})`,
          { name: e.name, integrity: e.integrity, problems },
        );
      checked.set(e.integrity, files);
    }
    return { lock, contentDir: (integrity) => checked.get(integrity), cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** `gjc plugin sync --from <set.tgz>`: the set's lock and content, nothing from the network or the cache. */
export async function syncFromSet(ctx: Context, scope: Scope, archive: string, o: SyncOptions): Promise<SyncResult> {
  const set = await openSet(ctx, resolve(ctx.cwd, archive), scope);
  try {
    const { syncScope } = await import("./sync.ts");
    return await syncScope(ctx, scope, {
      ...o,
      lock: set.lock,
      setDir: set.contentDir,
      offline: true,
      command: "gjc plugin sync --from",
    });
  } finally {
    await set.cleanup();
  }
}
