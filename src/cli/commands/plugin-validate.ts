import { validatePath } from "../../families/validate.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { validationOutcome } from "../render/validation.ts";

export default defineVerb({
  name: "plugin validate",
  description: "Check a bundle (gajae-plugin.json or plugin.json) or a marketplace.json and report every problem",
  schema: "gjc/validate@1",
  args: {
    path: { type: "positional", description: "Bundle directory, manifest file, or marketplace.json", required: true },
    strict: { type: "boolean", description: "Treat warnings as failures" },
    ...jsonArg,
  },
  examples: ["gjc plugin validate ./my-bundle", "gjc plugin validate ./catalog/marketplace.json --json"],
  async run({ args, ctx }) {
    const report = await validatePath(ctx, args.path);
    return validationOutcome(report, Boolean(args.strict), ctx.out);
  },
});
