import { cachePrune } from "../../sets/cache-command.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeCachePrune } from "../render/sets.ts";

export default defineVerb({
  name: "plugin cache prune",
  description: "Remove cached contents that no lock, retained generation or installed bundle on this machine names",
  schema: "gjc/cache-prune@1",
  args: {
    "dry-run": { type: "boolean", description: "List what would be removed, remove nothing" },
    ...jsonArg,
  },
  examples: ["gjc plugin cache prune --dry-run", "gjc plugin cache prune"],
  async run({ args, ctx }) {
    const r = await cachePrune(ctx, args["dry-run"] === true);
    return { json: { schema: "gjc/cache-prune@1", ok: true, ...r }, human: describeCachePrune(r) };
  },
});
