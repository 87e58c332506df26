/**
 * The policy changes a user or a host asks for (`gjc plugin policy apply|reset`, the host
 * plane's plugins.apply_change and plugins.reset): a sync or rollback killed half-way is
 * finished first (src/sets/journal.ts), so the change never lands on a half-changed set that
 * the recovery would later overwrite. A sync applies its own policy through policy-plane.ts
 * directly, inside its transaction.
 */
import type { Context } from "../core/context.ts";
import { applyPolicyPlan, resetPolicy, type ApplyResult, type ResetResult } from "../c2store/policy-plane.ts";

async function afterPendingSets(ctx: Context): Promise<void> {
  const { finishPendingSets } = await import("../sets/pending.ts");
  await finishPendingSets(ctx);
}

/** `gjc plugin policy apply <token>`. */
export async function applyPolicy(ctx: Context, token: string): Promise<ApplyResult> {
  await afterPendingSets(ctx);
  return applyPolicyPlan(ctx, token);
}

/** `gjc plugin policy reset <plugin>`. */
export async function resetPolicyOf(
  ctx: Context,
  plugin: string,
  opts: { project?: string } = {},
): Promise<ResetResult> {
  await afterPendingSets(ctx);
  return resetPolicy(ctx, plugin, opts);
}
