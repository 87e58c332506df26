/**
 * Projects on this machine whose sets gjc has recorded, so `cache prune` can keep what their
 * locks and histories name even when run elsewhere. `<cache>/projects.json`, a sorted list of
 * project directories; one that no longer exists is dropped when read.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import type { Context } from "../core/context.ts";
import { KnownProjects } from "./disk-schemas.generated.ts";
import { cacheRoot } from "../store/set-paths.ts";
import { readStateJson } from "../store/state-file.ts";

const file = (ctx: Context) => join(cacheRoot(ctx), "projects.json");

export function knownProjects(ctx: Context): string[] {
  try {
    // A malformed file (its schema: src/sets/disk-schemas.ts) names no project; the next sync rewrites it.
    const read = readStateJson(ctx, file(ctx));
    const list = read.kind === "ok" ? read.value : undefined;
    return KnownProjects.check(list) ? (list as string[]).filter((p) => existsSync(p)) : [];
  } catch {
    return [];
  }
}

export function rememberProject(ctx: Context, dir: string): void {
  const list = knownProjects(ctx);
  if (list.includes(dir)) return;
  mkdirSync(cacheRoot(ctx), { recursive: true, mode: 0o700 });
  writeFileAtomic(file(ctx), `${JSON.stringify([...list, dir].sort(), null, 2)}\n`, { mode: 0o600 });
}
