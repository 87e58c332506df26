/**
 * The content-addressed cache of judged bundle content (DESIGN §5: `$GJC_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/gjc`, else `~/.cache/gjc`), private to the user (0700):
 *
 *   content/<integrity hex>/entry.json   name, family, version, the (path, mode, sha256, bytes) list
 *   content/<integrity hex>/files/…      the bundle's files, with their installed modes
 *   content/.tmp-<pid>-<rand>/           an entry being written (renamed into place: atomic)
 *   content/.trash-<pid>-<rand>/         an entry on its way out
 *
 * An entry is only ever written from bytes whose sha256 matched the record, and it is named by
 * the integrity of exactly those files, so a reader checks one digest to trust a whole entry.
 * Entries are never modified in place; `verify` re-hashes them, `prune` removes unnamed ones.
 */
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Static } from "typebox";
import { fsyncDir, writeFileAtomic } from "../bundle/atomic-fs.ts";
import { sha256Hex } from "../bundle/hash.ts";
import { relativePathProblem } from "../bundle/path-safety.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import { readStateJson } from "./state-file.ts";
import { assertCacheRoot } from "./cache-root.ts";
import { cacheRoot, type Context } from "../core/context.ts";
import { randomHex } from "../core/random.ts";
import { processAlive } from "../process/process-identity.ts";
import { CacheEntry as CacheEntryCheck } from "./disk-schemas.generated.ts";
import { documentProblem } from "./document-problem.ts";
import { writeFiles } from "./files.ts";
import { diskProblems } from "./disk-check.ts";
import { integrityHex, integrityOf } from "./integrity.ts";
import type { SetReason } from "../core/reason.ts";
import type { CacheEntrySchema, CachedFileSchema } from "./cache-schema.ts";

export type CachedFile = Static<typeof CachedFileSchema>;
export type CacheEntry = Static<typeof CacheEntrySchema>;

const HEX = /^[0-9a-f]{64}$/;
const TRANSIENT = /^\.(tmp|trash)-\d+-[0-9a-f]+$/;
/** Per-file cap: the larger family budget (GJC, 16 MiB). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

export const contentRoot = (ctx: Context) => join(cacheRoot(ctx), "content");
export const entryDir = (ctx: Context, integrity: string) => join(contentRoot(ctx), integrityHex(integrity));
export const entryFilesDir = (ctx: Context, integrity: string) => join(entryDir(ctx, integrity), "files");

/** Creates the cache directories private to the user (0700), also when they existed wider. */
function ensureRoot(ctx: Context): string {
  assertCacheRoot(ctx);
  const root = cacheRoot(ctx);
  const content = contentRoot(ctx);
  mkdirSync(content, { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
  chmodSync(content, 0o700);
  return content;
}

/**
 * The first problem of an entry.json read from disk (a cache entry, a set archive), or
 * undefined: its schema (src/sets/disk-schemas.ts, naming the bad field), then what a schema
 * cannot say: every path a safe relative path (it is joined to a directory of ours before any
 * use), listed once. A list may match its digest and still be hostile (whoever wrote the digest
 * wrote the list), so this check comes first.
 */
export function entryProblem(entry: unknown): string | undefined {
  const shape = documentProblem(CacheEntryCheck, entry);
  if (shape !== undefined) return shape;
  const seen = new Set<string>();
  for (const [i, f] of (entry as CacheEntry).files.entries()) {
    const problem = relativePathProblem(f.path);
    if (problem) return `the path ${JSON.stringify(f.path.slice(0, 200))} ${problem} (at /files/${i}/path)`;
    if (seen.has(f.path)) return `${f.path} is listed twice (at /files/${i}/path)`;
    seen.add(f.path);
  }
  return undefined;
}

/** The entry's record, or why it cannot be used (absent, unreadable, malformed, not its digest's). */
function loadCacheEntry(ctx: Context, integrity: string): { entry: CacheEntry } | { problem: string } {
  assertCacheRoot(ctx);
  let raw: unknown;
  try {
    const read = readStateJson(ctx, join(entryDir(ctx, integrity), "entry.json"));
    if (read.kind === "missing") return { problem: "entry.json is missing or unreadable" };
    if (read.kind !== "ok") return { problem: `entry.json: ${read.problem}` };
    raw = read.value;
  } catch {
    return { problem: "entry.json is missing or unreadable" };
  }
  const problem = entryProblem(raw);
  if (problem !== undefined) return { problem: `entry.json: ${problem}` };
  const entry = raw as CacheEntry;
  if (entry.integrity !== integrity || integrityOf(entry.files) !== integrity)
    return { problem: "entry.json does not match the entry's digest" };
  return { entry };
}

/** The entry's record, or undefined when it cannot be used (treated as a miss). */
export function readCacheEntry(ctx: Context, integrity: string): CacheEntry | undefined {
  const got = loadCacheEntry(ctx, integrity);
  return "entry" in got ? got.entry : undefined;
}

export const hasCacheEntry = (ctx: Context, integrity: string) => readCacheEntry(ctx, integrity) !== undefined;

/**
 * Stores a bundle's files (read from `root`, checked against `files`) under its integrity.
 * Returns false, storing nothing, when a file on disk no longer matches its record: the cache
 * only ever holds content that was judged.
 */
export function putCacheEntry(
  ctx: Context,
  given: Omit<CacheEntry, "integrity">,
  root: string,
): { integrity: string; stored: boolean } {
  // One key order whoever stores it (the GJC and C2 records list their fields differently):
  // entry.json goes into set archives, which must be the same bytes on every run.
  const meta = {
    name: given.name,
    family: given.family,
    version: given.version,
    files: given.files.map((f) => ({ path: f.path, mode: f.mode, sha256: f.sha256, bytes: f.bytes })),
  };
  const integrity = integrityOf(meta.files);
  if (hasCacheEntry(ctx, integrity)) return { integrity, stored: false };
  const content = ensureRoot(ctx);
  const tmp = join(content, `.tmp-${process.pid}-${randomHex(12)}`);
  try {
    mkdirSync(tmp, { mode: 0o700 });
    const contents = new Map<string, Uint8Array>();
    for (const f of meta.files) {
      const opened = readRegularFile(join(root, f.path), MAX_FILE_BYTES, f.path);
      if (opened.size !== f.bytes || sha256Hex(opened.bytes) !== f.sha256) {
        rmSync(tmp, { recursive: true, force: true });
        return { integrity, stored: false };
      }
      contents.set(f.path, opened.bytes);
    }
    writeFiles(join(tmp, "files"), meta.files, contents);
    writeFileAtomic(join(tmp, "entry.json"), `${JSON.stringify({ integrity, ...meta }, null, 2)}\n`, { mode: 0o600 });
    try {
      renameSync(tmp, join(content, integrityHex(integrity)));
    } catch (error) {
      // Another process stored the same content first: theirs is as good as ours.
      if (hasCacheEntry(ctx, integrity)) {
        rmSync(tmp, { recursive: true, force: true });
        return { integrity, stored: false };
      }
      throw error;
    }
    fsyncDir(content);
    return { integrity, stored: true };
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

export function listCacheEntries(ctx: Context): { entries: CacheEntry[]; broken: string[] } {
  const { entries, broken } = scanCache(ctx);
  return { entries, broken: broken.map((b) => b.integrity) };
}

function scanCache(ctx: Context): { entries: CacheEntry[]; broken: { integrity: string; problem: string }[] } {
  assertCacheRoot(ctx);
  let names: string[];
  try {
    names = readdirSync(contentRoot(ctx)).sort();
  } catch {
    return { entries: [], broken: [] };
  }
  const entries: CacheEntry[] = [];
  const broken: { integrity: string; problem: string }[] = [];
  for (const name of names) {
    if (!HEX.test(name)) continue;
    const got = loadCacheEntry(ctx, `sha256:${name}`);
    if ("entry" in got) entries.push(got.entry);
    else broken.push({ integrity: `sha256:${name}`, problem: got.problem });
  }
  return { entries, broken };
}

export interface CacheVerifyResult {
  ok: boolean;
  checked: number;
  /** Each damaged entry with why, as {code, message} (src/core/reason.ts): cache_damaged, the file or entry.json named. */
  damaged: { integrity: string; name?: string; reasons: SetReason[] }[];
}

/** Re-hashes every entry's files against its record (whose digest is the entry's name). Read-only. */
export function verifyCache(ctx: Context): CacheVerifyResult {
  const { entries, broken } = scanCache(ctx);
  const damaged: CacheVerifyResult["damaged"] = broken.map((b) => ({
    integrity: b.integrity,
    reasons: [{ code: "cache_damaged", message: b.problem }],
  }));
  for (const e of entries) {
    const problems = diskProblems({ root: entryFilesDir(ctx, e.integrity), files: e.files });
    if (problems.length > 0)
      damaged.push({
        integrity: e.integrity,
        name: e.name,
        reasons: problems.map((p) => ({ code: "cache_damaged", message: `${p.kind}: ${p.path}` })),
      });
  }
  return { ok: damaged.length === 0, checked: entries.length + broken.length, damaged };
}

/** The entry's files, re-hashed now: the cache's content is used only when it is still whole. */
export function usableCacheEntry(ctx: Context, integrity: string): { entry: CacheEntry; dir: string } | undefined {
  const entry = readCacheEntry(ctx, integrity);
  if (!entry) return undefined;
  const dir = entryFilesDir(ctx, integrity);
  if (diskProblems({ root: dir, files: entry.files }).length > 0) return undefined;
  return { entry, dir };
}

export interface CachePruneResult {
  kept: number;
  removed: { integrity: string; name?: string }[];
  dryRun: boolean;
}

/** Removes every entry (and leftover) whose integrity is not in `keep`. */
export function pruneCache(ctx: Context, keep: Set<string>, dryRun = false): CachePruneResult {
  assertCacheRoot(ctx);
  let names: string[];
  try {
    names = readdirSync(contentRoot(ctx)).sort();
  } catch {
    return { kept: 0, removed: [], dryRun };
  }
  const removed: CachePruneResult["removed"] = [];
  let kept = 0;
  for (const name of names) {
    const abs = join(contentRoot(ctx), name);
    if (TRANSIENT.test(name)) {
      const pid = Number(name.split("-")[1]);
      if (!dryRun && !processAlive(pid)) rmSync(abs, { recursive: true, force: true });
      continue;
    }
    if (!HEX.test(name)) continue; // not ours: never touched
    const integrity = `sha256:${name}`;
    if (keep.has(integrity)) {
      kept++;
      continue;
    }
    removed.push({ integrity, name: readCacheEntry(ctx, integrity)?.name });
    if (dryRun) continue;
    const trash = join(contentRoot(ctx), `.trash-${process.pid}-${randomHex(12)}`);
    renameSync(abs, trash);
    rmSync(trash, { recursive: true, force: true });
  }
  return { kept, removed, dryRun };
}
