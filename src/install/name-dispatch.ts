import type { Context } from "../core/context.ts";
import { isGjcError, usageError } from "../core/errors.ts";
import { c2Verb, type BridgeOutcome, type C2Operation } from "./c2-bridge.ts";
import { scopeFlag, scopeRoot } from "./layout.ts";
import { tryReadRegistry } from "./registry.ts";
import type { Scope } from "./registry-types.ts";

/**
 * A name-based verb without --user/--project means the C2 bundle of that name. When there is
 * none but a GJC bundle has that name, say which scope flag was missing instead of only
 * "not installed".
 */
export async function c2ByName(ctx: Context, op: C2Operation, params: { name: string; [k: string]: unknown }): Promise<BridgeOutcome> {
  try {
    return await c2Verb(ctx, op, params);
  } catch (error) {
    if (!isGjcError(error) || error.code !== "not_installed") throw error;
    const scopes = (["user", "project"] as Scope[]).filter((s) => {
      const read = tryReadRegistry(scopeRoot(ctx, s), s);
      return read.ok && read.registry.plugins.some((p) => p.name === params.name);
    });
    if (scopes.length === 0) throw error;
    throw usageError(
      `${params.name} is a GJC bundle (installed in the ${scopes.join(" and the ")} scope${scopes.length > 1 ? "s" : ""}); GJC bundles need --user or --project.`,
      `Run: gjc plugin ${op} ${params.name} ${scopes.map(scopeFlag).join(" or ")}`,
      "scope_required",
    );
  }
}
