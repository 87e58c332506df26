/** `gjc plugin cache list|verify|prune`: the content cache as a whole. */
import type { Context } from "../core/context.ts";
import type { Scope } from "../install/registry-types.ts";
import { listCacheEntries, pruneCache, verifyCache, type CachePruneResult } from "../store/cache.ts";
import { readHistory } from "./history.ts";
import { installedBundles } from "./installed.ts";
import { readJournal } from "../store/journal.ts";
import { knownProjects } from "./known-projects.ts";
import { readLockFile } from "./lock-file.ts";
import { cacheRoot, lockPath } from "../store/set-paths.ts";

export interface CacheListRow {
  integrity: string;
  name: string;
  family: "gjc" | "c2";
  version: string;
  files: number;
  bytes: number;
}

export function cacheList(ctx: Context): { root: string; entries: CacheListRow[]; broken: string[] } {
  const { entries, broken } = listCacheEntries(ctx);
  return {
    root: cacheRoot(ctx),
    entries: entries.map((e) => ({
      integrity: e.integrity,
      name: e.name,
      family: e.family,
      version: e.version,
      files: e.files.length,
      bytes: e.files.reduce((n, f) => n + f.bytes, 0),
    })),
    broken,
  };
}

export function cacheVerify(ctx: Context) {
  return { root: cacheRoot(ctx), ...verifyCache(ctx) };
}

/**
 * Everything that may need content later: the user lock, history and pending journal, and
 * those of every project gjc recorded on this machine (and of the current directory), plus
 * what is installed.
 */
async function retained(ctx: Context): Promise<Set<string>> {
  const keep = new Set<string>();
  const addScope = async (c: Context, scope: Scope) => {
    for (const e of readLockFile(lockPath(c, scope))?.bundles ?? []) keep.add(e.integrity);
    for (const g of readHistory(c, scope).generations) for (const e of g.bundles) keep.add(e.integrity);
    // An interrupted set change is finished (or undone) from the cache alone.
    try {
      const j = readJournal(c, scope);
      for (const e of [...(j?.forward?.bundles ?? []), ...(j?.backward.bundles ?? [])]) keep.add(e.integrity);
    } catch {
      // A damaged journal names nothing we can read.
    }
    try {
      for (const b of await installedBundles(c, scope)) keep.add(b.entry.integrity);
    } catch {
      // A damaged registry names nothing we can read; its lock and history still count.
    }
  };
  await addScope(ctx, "user");
  const projects = new Set([...knownProjects(ctx), ctx.cwd]);
  for (const dir of projects) await addScope({ ...ctx, cwd: dir }, "project");
  return keep;
}

export async function cachePrune(ctx: Context, dryRun: boolean): Promise<CachePruneResult & { root: string }> {
  return { root: cacheRoot(ctx), ...pruneCache(ctx, await retained(ctx), dryRun) };
}
