import { listCatalog } from "../../c2store/catalog-list.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeCatalogListing } from "../render/marketplace.ts";

export default defineVerb({
  name: "marketplace list",
  description: "List a C2 catalog's entries, whether each can be installed, and which are installed",
  schema: "gjc/marketplace-list@1",
  args: {
    catalog: { type: "positional", description: "marketplace.json or the directory holding it", required: true },
    ...jsonArg,
  },
  examples: ["gjc marketplace list ./catalog", "gjc plugin install hello-runtime@./catalog"],
  async run({ args, ctx }) {
    const r = listCatalog(ctx, args.catalog);
    return {
      json: { schema: "gjc/marketplace-list@1", ok: true, ...r },
      human: describeCatalogListing(r, args.catalog, ctx.out),
    };
  },
});
