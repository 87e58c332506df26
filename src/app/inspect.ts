import type { Context } from "../core/context.ts";
import type { InspectBundle } from "../store/documents.ts";
import type { StoreSelection } from "../store/resolve.ts";
import { resolveInstalled } from "./stores.ts";

/** `gjc plugin inspect <name>`: one bundle, wherever the resolver finds it. */
export async function inspectBundle(ctx: Context, name: string, sel: StoreSelection = {}): Promise<InspectBundle> {
  const t = await resolveInstalled(ctx, name, sel);
  return t.adapter.inspect(ctx, name, t.scope);
}
