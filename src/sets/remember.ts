/**
 * What the store's mutating commands do around their change (issue #14): first finish a sync or
 * rollback a killed process left (journal.ts), then, once the change succeeded, record a
 * generation of each scope whose set changed (history.ts). Core, not the CLI: a host that
 * imports gjc gets the same history. The content cache is filled by the commit path itself
 * (src/store/cache-fill.ts). sync and rollback record their own generation.
 */
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import { scopeRoot } from "../families/gjc/layout.ts";
import type { Scope } from "../install/registry-types.ts";
import { recordGeneration } from "./history.ts";
import { installedBundles } from "./installed.ts";
import { inSetTransactionNow } from "../store/journal.ts";
import { finishPendingSets } from "./pending.ts";
import { rememberProject } from "./known-projects.ts";

export async function rememberScope(ctx: Context, scope: Scope, command: string): Promise<void> {
  const bundles = await installedBundles(ctx, scope);
  recordGeneration(
    ctx,
    scope,
    command,
    bundles.map((b) => b.entry),
  );
  if (scope === "project") rememberProject(ctx, ctx.cwd);
}

/** Both scopes (the project scope only when this directory has one). */
export async function rememberAfter(ctx: Context, command: string): Promise<void> {
  await rememberScope(ctx, "user", command);
  if (existsSync(scopeRoot(ctx, "project"))) await rememberScope(ctx, "project", command);
}

/**
 * Runs one mutating store command: `fn` after any pending set change is finished, then (not a
 * dry run) the generations. Inside a sync or rollback of this process it is only `fn`: the
 * set transaction records its one generation when the whole change is made.
 */
export async function storeChange<T>(
  ctx: Context,
  command: string,
  dryRun: boolean | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  if (inSetTransactionNow()) return fn();
  if (!dryRun) await finishPendingSets(ctx);
  const result = await fn();
  if (dryRun) return result;
  try {
    await rememberAfter(ctx, command);
  } catch (error) {
    // The change itself is committed; a history that could not be written only means a
    // later rollback has fewer generations to choose from.
    ctx.log.warn(`the plugin history was not updated: ${error instanceof Error ? error.message : String(error)}`);
  }
  return result;
}
