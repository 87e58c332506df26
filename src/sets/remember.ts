/**
 * What every command that changed installed state does afterwards (called once by the CLI
 * after such a verb succeeds): store the content of each installed bundle in the content
 * cache (judged bytes, checked against their record), and record a generation of the scope
 * when its set changed. Only bundles missing from the cache are read.
 */
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import { scopeRoot } from "../install/layout.ts";
import type { Scope } from "../install/registry-types.ts";
import { putCacheEntry } from "./cache.ts";
import { recordGeneration } from "./history.ts";
import { installedBundles, type InstalledBundle } from "./installed.ts";
import { rememberProject } from "./known-projects.ts";

export function cacheInstalled(ctx: Context, bundles: InstalledBundle[]): void {
  for (const b of bundles) putCacheEntry(ctx, { name: b.entry.name, family: b.entry.family, version: b.entry.version, files: b.files }, b.root);
}

export async function rememberScope(ctx: Context, scope: Scope, command: string): Promise<void> {
  const bundles = await installedBundles(ctx, scope);
  cacheInstalled(ctx, bundles);
  recordGeneration(ctx, scope, command, bundles.map((b) => b.entry));
  if (scope === "project") rememberProject(ctx, ctx.cwd);
}

/** Both scopes (the project scope only when this directory has one). */
export async function rememberAfter(ctx: Context, command: string): Promise<void> {
  await rememberScope(ctx, "user", command);
  if (existsSync(scopeRoot(ctx, "project"))) await rememberScope(ctx, "project", command);
}
