/**
 * What every command that changed installed state does afterwards (called once by the CLI
 * after such a verb succeeds): record a generation of each scope whose set changed. The
 * content cache is not filled here: the store's commit path does that for every install
 * (src/store/cache-fill.ts).
 */
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import { scopeRoot } from "../install/layout.ts";
import type { Scope } from "../install/registry-types.ts";
import { recordGeneration } from "./history.ts";
import { installedBundles } from "./installed.ts";
import { rememberProject } from "./known-projects.ts";

export async function rememberScope(ctx: Context, scope: Scope, command: string): Promise<void> {
  const bundles = await installedBundles(ctx, scope);
  recordGeneration(ctx, scope, command, bundles.map((b) => b.entry));
  if (scope === "project") rememberProject(ctx, ctx.cwd);
}

/** Both scopes (the project scope only when this directory has one). */
export async function rememberAfter(ctx: Context, command: string): Promise<void> {
  await rememberScope(ctx, "user", command);
  if (existsSync(scopeRoot(ctx, "project"))) await rememberScope(ctx, "project", command);
}
