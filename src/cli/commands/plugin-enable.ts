import { enablementVerb } from "../../install/enablement-verb.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";

export default defineVerb({
  name: "plugin enable",
  description: "Enable an installed bundle, or one of its surfaces (GJC with --user/--project; otherwise C2)",
  schema: "gjc/enable@1",
  args: {
    name: { type: "positional", description: "Installed bundle name", required: true },
    ...scopeArgs,
    surface: { type: "string", description: "GJC: one surface id (tool:x, mcp:y, …) instead of the whole bundle", valueHint: "id" },
    ...jsonArg,
  },
  examples: ["gjc plugin enable my-bundle --user", "gjc plugin enable my-bundle --project --surface tool:domain_note"],
  run: ({ args, ctx }) => enablementVerb(ctx, "enable", args),
});
