import { dirname, join } from "node:path";
import { gjcUserRoot, type Context } from "../core/context.ts";
import type { Scope } from "../core/scope.ts";

/**
 * Where the files of a plugin set live (DESIGN §5):
 *   project lock   <project>/.gjc/plugins.lock.json       (committed by teams)
 *   user lock      plugins.lock.json beside the user scope root
 *   history        plugins-history/ beside the lock        (machine-local, never committed)
 *   content cache  $GJC_CACHE_DIR, else $XDG_CACHE_HOME/gjc, else ~/.cache/gjc
 */
export { cacheRoot } from "../core/context.ts";

export const LOCK_NAME = "plugins.lock.json";

/** The directory that holds a scope's lock and history: `<project>/.gjc`, or the user scope root's parent. */
export function setHome(ctx: Context, scope: Scope): string {
  return scope === "user" ? dirname(gjcUserRoot(ctx)) : join(ctx.cwd, ".gjc");
}

export function lockPath(ctx: Context, scope: Scope): string {
  return join(setHome(ctx, scope), LOCK_NAME);
}

export function historyDir(ctx: Context, scope: Scope): string {
  return join(setHome(ctx, scope), "plugins-history");
}
