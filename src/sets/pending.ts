/**
 * Finishing a set change a killed command left (the store's journal, src/store/journal.ts)
 * before a mutating command starts, through the same finisher every sets verb uses (sync's,
 * offline from the cache). Loaded by every install: the sync pipeline loads only when a journal
 * is pending.
 */
import type { Context } from "../core/context.ts";
import type { Scope } from "../core/scope.ts";
import { pendingScopes } from "../store/journal.ts";

/**
 * The store's mutating commands (install, uninstall, enable/disable, upgrade; C2 trust/untrust
 * and policy apply/reset) call this first, so a change of theirs never lands on a half-changed
 * set that a later recovery would then overwrite.
 */
export async function finishPendingSets(ctx: Context): Promise<void> {
  for (const scope of pendingScopes(ctx)) await finishPendingSet(ctx, scope);
}

/**
 * Finishes (or undoes) the scope's pending journal under the set lock, as the next sets verb
 * would; `gjc plugin doctor --fix` calls it too. Throws transaction_unfinished when it can be
 * neither, journal_corrupt for a damaged journal.
 */
export async function finishPendingSet(
  ctx: Context,
  scope: Scope,
  command = "gjc (finishing an interrupted change)",
): Promise<void> {
  const { inSetTransaction } = await import("./sync.ts");
  await inSetTransaction(ctx, scope, command, async () => {});
}
