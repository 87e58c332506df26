import { setBundleEnabled } from "../../app/enable.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeEnablement } from "../render/store.ts";

/** `plugin enable` and `plugin disable`: one verb shape, told apart by the action. */
export function enablementVerb(action: "enable" | "disable") {
  const title = action === "enable" ? "Enable" : "Disable";
  return defineVerb({
    name: `plugin ${action}`,
    description: `${title} an installed bundle, or one of its surfaces (GJC)`,
    schema: `gjc/${action}@1`,
    args: {
      name: { type: "positional", description: "Installed bundle name", required: true },
      ...scopeArgs,
      ...familyArg,
      surface: {
        type: "string",
        description: "GJC: one surface id (tool:x, mcp:y, …) instead of the whole bundle",
        valueHint: "id",
      },
      ...jsonArg,
    },
    examples: [
      `gjc plugin ${action} my-bundle --user`,
      `gjc plugin ${action} my-bundle --project --surface tool:domain_note`,
    ],
    async run({ args, ctx }) {
      const r = await setBundleEnabled(ctx, args.name, action === "enable", args, args.surface);
      return { json: { schema: `gjc/${action}@1`, ok: true, ...r }, human: describeEnablement(ctx, r, action) };
    },
  });
}

export default enablementVerb("enable");
