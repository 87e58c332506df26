import { applyPolicy } from "../../app/policy.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describePolicyApply } from "../render/policy.ts";

export default defineVerb({
  name: "plugin policy apply",
  description: "Apply a planned C2 policy change (single use, refused when the policy moved on)",
  schema: "gjc/policy-apply@1",
  args: {
    token: { type: "positional", description: "The token printed by gjc plugin policy plan", required: true },
    ...jsonArg,
  },
  examples: ["gjc plugin policy apply 4f1c…"],
  async run({ args, ctx }) {
    const result = await applyPolicy(ctx, args.token);
    return { json: { schema: "gjc/policy-apply@1", ok: true, ...result }, human: describePolicyApply(result) };
  },
});
