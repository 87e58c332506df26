import { setBundleEnabled } from "../../store/verbs.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeEnablement } from "../render/store.ts";

export default defineVerb({
  name: "plugin disable",
  description: "Disable an installed bundle, or one of its surfaces (GJC)",
  schema: "gjc/disable@1",
  args: {
    name: { type: "positional", description: "Installed bundle name", required: true },
    ...scopeArgs,
    ...familyArg,
    surface: { type: "string", description: "GJC: one surface id (tool:x, mcp:y, …) instead of the whole bundle", valueHint: "id" },
    ...jsonArg,
  },
  examples: ["gjc plugin disable my-bundle --user", "gjc plugin disable my-bundle --project --surface tool:domain_note"],
  async run({ args, ctx }) {
    const r = await setBundleEnabled(ctx, args.name, false, args, args.surface);
    return { json: { schema: "gjc/disable@1", ok: true, ...r }, human: describeEnablement(ctx, r, "disable") };
  },
});
