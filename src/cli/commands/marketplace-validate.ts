import { validatePath } from "../../families/validate.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { validationOutcome } from "../render/validation.ts";

export default defineVerb({
  name: "marketplace validate",
  description: "Check a C2 marketplace.json catalog and its local entries",
  schema: "gjc/validate@1",
  args: {
    path: { type: "positional", description: "marketplace.json or the directory holding it", required: true },
    strict: { type: "boolean", description: "Treat warnings as failures" },
    ...jsonArg,
  },
  examples: ["gjc marketplace validate ./catalog"],
  async run({ args, ctx }) {
    const report = await validatePath(ctx, args.path, "catalog");
    return validationOutcome(report, Boolean(args.strict), ctx.out);
  },
});
