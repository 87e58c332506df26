import type { Context } from "../core/context.ts";
import type { VerbOutcome } from "./define-verb.ts";

/**
 * Verbs that change installed state. After one succeeds (not a dry run), the plugin-set layer
 * records a generation of each changed scope (issue #14); sync and rollback record their own.
 * (The content cache is filled by the store's commit path itself, src/store/cache-fill.ts.)
 */
const CHANGES_INSTALLED_STATE = new Set(["plugin install", "plugin upgrade", "plugin uninstall", "plugin enable", "plugin disable", "plugin trust", "plugin untrust"]);

export async function afterVerb(ctx: Context, name: string, args: Record<string, unknown>, outcome: VerbOutcome): Promise<void> {
  if (!CHANGES_INSTALLED_STATE.has(name) || args["dry-run"] === true || (outcome.exit ?? 0) !== 0) return;
  try {
    const { rememberAfter } = await import("../sets/remember.ts");
    await rememberAfter(ctx, `gjc ${name}`);
  } catch (error) {
    // The change itself is committed; a history that could not be written only means a
    // later rollback has fewer generations to choose from.
    ctx.log.warn(`the plugin history was not updated: ${error instanceof Error ? error.message : String(error)}`);
  }
}
