import type { Context } from "../core/context.ts";
import type { UninstallResult } from "../store/documents.ts";
import type { StoreSelection } from "../store/resolve.ts";
import { resolveInstalled } from "./stores.ts";

/** `gjc plugin uninstall <name>`. */
export async function uninstallBundle(
  ctx: Context,
  name: string,
  sel: StoreSelection,
  opts: { dryRun?: boolean; keepData?: boolean } = {},
): Promise<UninstallResult> {
  const { storeChange } = await import("../sets/remember.ts");
  return storeChange(ctx, "gjc plugin uninstall", opts.dryRun, async () => {
    const t = await resolveInstalled(ctx, name, sel);
    const r = await t.adapter.uninstall(ctx, name, t.scope, opts);
    // Grants belong to the installed bundle: another bundle installed later under the name starts from the default profile.
    if (r.status === "uninstalled")
      await (await import("../sets/grant-writes.ts")).dropBundleGrants(ctx, r.family, r.scope, r.name);
    return r;
  });
}
