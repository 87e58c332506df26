import { resetPolicyOf } from "../../app/policy.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describePolicyReset } from "../render/policy.ts";

export default defineVerb({
  name: "plugin policy reset",
  description: "Clear a C2 bundle's policy at one scope; also the way out of safe mode",
  schema: "gjc/policy-reset@1",
  args: {
    plugin: { type: "positional", description: "C2 bundle name or id", required: true },
    project: {
      type: "string",
      description: "Reset the policy of this project instead of the user's",
      valueHint: "dir",
    },
    ...jsonArg,
  },
  examples: ["gjc plugin policy reset hello-runtime", "gjc plugin policy reset hello-runtime --project ."],
  async run({ args, ctx }) {
    const result = await resetPolicyOf(ctx, args.plugin, { project: args.project });
    return { json: { schema: "gjc/policy-reset@1", ok: true, ...result }, human: describePolicyReset(result) };
  },
});
