import type { Context } from "../core/context.ts";
import type { ListDocument } from "../store/documents.ts";
import type { StoreSelection } from "../store/resolve.ts";
import { selectedStores } from "./stores.ts";

/** `gjc plugin list`: every bundle of the selected stores as one array of rows of one shape. */
export async function listBundles(ctx: Context, sel: StoreSelection = {}): Promise<Omit<ListDocument, "schema">> {
  const out: Omit<ListDocument, "schema"> = { ok: true, bundles: [], problems: [] };
  for (const t of await selectedStores(sel)) {
    const r = await t.adapter.list(ctx, t.scope);
    out.bundles.push(...r.bundles);
    out.problems.push(...r.problems);
    if (r.foreign !== undefined && r.foreign.length > 0) (out.foreign ??= []).push(...r.foreign);
  }
  out.ok = out.problems.length === 0;
  return out;
}
