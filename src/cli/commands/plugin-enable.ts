import { setBundleEnabled } from "../../store/verbs.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeEnablement } from "../render/store.ts";

export default defineVerb({
  name: "plugin enable",
  description: "Enable an installed bundle, or one of its surfaces (GJC)",
  schema: "gjc/enable@1",
  args: {
    name: { type: "positional", description: "Installed bundle name", required: true },
    ...scopeArgs,
    ...familyArg,
    surface: { type: "string", description: "GJC: one surface id (tool:x, mcp:y, …) instead of the whole bundle", valueHint: "id" },
    ...jsonArg,
  },
  examples: ["gjc plugin enable my-bundle --user", "gjc plugin enable my-bundle --project --surface tool:domain_note"],
  async run({ args, ctx }) {
    const r = await setBundleEnabled(ctx, args.name, true, args, args.surface);
    return { json: { schema: "gjc/enable@1", ok: true, ...r }, human: describeEnablement(ctx, r, "enable") };
  },
});
