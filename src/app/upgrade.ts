import type { Context } from "../core/context.ts";
import type { SignaturePolicy } from "../signing/check.ts";
import type { InstallResult } from "../store/documents.ts";
import type { StoreSelection } from "../store/resolve.ts";
import { resolveInstalled } from "./stores.ts";

/** `gjc plugin upgrade <name>`: re-fetch the recorded source and install it over the bundle. */
export async function upgradeBundle(
  ctx: Context,
  name: string,
  sel: StoreSelection,
  opts: { dryRun?: boolean } & SignaturePolicy = {},
): Promise<InstallResult> {
  const { storeChange } = await import("../sets/remember.ts");
  return storeChange(ctx, "gjc plugin upgrade", opts.dryRun, async () => {
    const t = await resolveInstalled(ctx, name, sel);
    return t.adapter.upgrade(ctx, name, t.scope, opts);
  });
}
