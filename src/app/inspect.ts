import type { Context } from "../core/context.ts";
import type { ForeignBundle, InspectBundle } from "../store/documents.ts";
import type { StoreSelection } from "../store/resolve.ts";
import { resolveInstalled } from "./stores.ts";

/** `gjc plugin inspect <name>`: one bundle, wherever the resolver finds it. */
export async function inspectBundle(
  ctx: Context,
  name: string,
  sel: StoreSelection = {},
): Promise<InspectBundle | { foreign: ForeignBundle }> {
  const t = await resolveInstalled(ctx, name, sel);
  const bundle = await t.adapter.inspect(ctx, name, t.scope);
  if ("foreign" in bundle) return bundle;
  const { recordedGrants } = await import("../store/grants-recorded.ts");
  return { ...bundle, grants: recordedGrants(ctx, bundle.family, bundle.scope, bundle.name) };
}
