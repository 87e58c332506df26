import { policyCatalog } from "../../c2store/policy-catalog.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describePolicyCatalog } from "../render/c2-policy-catalog.ts";

export default defineVerb({
  name: "plugin policy catalog",
  description: "Show every installed C2 bundle with its policy at the user or a project scope",
  schema: "gjc/policy-catalog@1",
  args: {
    project: { type: "string", description: "Show the policy in force for this project directory", valueHint: "dir" },
    ...jsonArg,
  },
  examples: ["gjc plugin policy catalog", "gjc plugin policy catalog --project . --json"],
  async run({ args, ctx }) {
    const result = policyCatalog(ctx, { project: args.project });
    // Hosts ask for --json at every session start; the human text (never printed then) is not built.
    const human = args.json ? "" : describePolicyCatalog(ctx.out, result);
    return { json: { schema: "gjc/policy-catalog@1", ok: true, ...result }, human };
  },
});
