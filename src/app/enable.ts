import type { Context } from "../core/context.ts";
import type { EnablementResult } from "../store/documents.ts";
import type { StoreSelection } from "../store/resolve.ts";
import { resolveInstalled } from "./stores.ts";

/** `gjc plugin enable|disable <name> [--surface <id>]`. */
export async function setBundleEnabled(
  ctx: Context,
  name: string,
  enabled: boolean,
  sel: StoreSelection,
  surface?: string,
): Promise<EnablementResult> {
  const { storeChange } = await import("../sets/remember.ts");
  return storeChange(ctx, `gjc plugin ${enabled ? "enable" : "disable"}`, false, async () => {
    const t = await resolveInstalled(ctx, name, sel);
    return t.adapter.setEnabled(ctx, name, t.scope, enabled, surface);
  });
}
