import type { Context } from "../core/context.ts";
import type { BridgeOutcome } from "./c2-bridge.ts";
import { c2ByName } from "./name-dispatch.ts";
import { setGjcEnabled } from "./enablement.ts";
import { scopeFromFlags } from "./install-command.ts";

/** Shared body of `plugin enable` and `plugin disable` (the two verbs differ only in the flag). */
export async function enablementVerb(ctx: Context, op: "enable" | "disable", args: { name: string; user?: boolean; project?: boolean; surface?: string }): Promise<BridgeOutcome> {
  const scope = scopeFromFlags(args);
  if (!scope) return c2ByName(ctx, op, { name: args.name, surface: args.surface });
  const r = await setGjcEnabled(ctx, args.name, scope, op === "enable", args.surface);
  const what = r.surface ? `Surface ${r.surface} of ${r.name}` : r.name;
  const human = r.changed ? `${what} is now ${op}d in the ${r.scope} scope.` : `${what} was already ${op}d in the ${r.scope} scope; nothing changed.`;
  return { json: { schema: `gjc/${op}@1`, ok: true, family: "gjc", ...r }, human };
}
