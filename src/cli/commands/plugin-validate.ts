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
    format: {
      type: "enum",
      options: ["human", "json", "github"],
      description:
        "Output: human (default), json (= --json), github (GitHub Actions annotations with file, line and column)",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin validate ./my-bundle",
    "gjc plugin validate ./catalog/marketplace.json --json",
    "gjc plugin validate . --format github",
  ],
  async run({ args, ctx }) {
    if (args.format === "github") {
      // Loaded only here: the plain run needs no line and column for its diagnostics.
      const { validateLocated } = await import("../../authoring/annotations.ts");
      const { githubAnnotations } = await import("../render/github-annotations.ts");
      const { report, located } = await validateLocated(ctx, args.path);
      const outcome = validationOutcome(report, Boolean(args.strict), ctx.out);
      return { ...outcome, human: githubAnnotations(located) };
    }
    const report = await validatePath(ctx, args.path);
    return validationOutcome(report, Boolean(args.strict), ctx.out);
  },
});
