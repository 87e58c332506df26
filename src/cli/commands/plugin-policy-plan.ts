import { planPolicyChange } from "../../c2store/policy-plane.ts";
import { usageError } from "../../core/errors.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describePolicyPlan } from "../render/policy.ts";

export default defineVerb({
  name: "plugin policy plan",
  description: "Plan a C2 policy change: print its exact impact and a single-use token for apply",
  schema: "gjc/policy-plan@1",
  args: {
    plugin: { type: "positional", description: "Installed C2 bundle name or id", required: true },
    state: {
      type: "enum",
      options: ["enabled", "disabled", "inherit"],
      description: "The state to set (left out with --config: the state stays as it is)",
    },
    component: {
      type: "string",
      description: "Change one component (ui:<id>, connector:<id>, lsp:<id>)",
      valueHint: "id",
    },
    config: { type: "string", description: "Runtime configuration to set (JSON)", valueHint: "json" },
    project: {
      type: "string",
      description: "Change the policy of this project instead of the user's",
      valueHint: "dir",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin policy plan hello-runtime --state disabled --project .",
    "gjc plugin policy plan hello-runtime --state disabled --component ui:greet",
    'gjc plugin policy plan hello-runtime --state enabled --config \'{"mode":"fast"}\'',
  ],
  async run({ args, ctx }) {
    if (!args.state && args.config === undefined)
      throw usageError(
        "Missing --state.",
        "Pass --state enabled, disabled or inherit, or --config alone to keep the state.",
        "missing_argument",
      );
    let config: unknown;
    if (args.config !== undefined) {
      try {
        config = JSON.parse(args.config);
      } catch (error) {
        throw usageError(
          `--config is not valid JSON: ${(error as Error).message}.`,
          `Quote it for the shell, e.g. --config '{"key":"value"}'.`,
          "invalid_option_value",
        );
      }
    }
    const plan = await planPolicyChange(ctx, {
      plugin: args.plugin,
      ...(args.state ? { state: args.state as "enabled" | "disabled" | "inherit" } : {}),
      ...(args.component !== undefined ? { component: args.component } : {}),
      ...(args.config !== undefined ? { config } : {}),
      ...(args.project !== undefined ? { project: args.project } : {}),
    });
    for (const w of plan.warnings) ctx.log.warn(w.message);
    return { json: { schema: "gjc/policy-plan@1", ok: true, ...plan }, human: describePolicyPlan(plan, ctx.out) };
  },
});
