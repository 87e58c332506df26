import { usageError } from "../../core/errors.ts";
import { scopeFromFlags } from "../../store/resolve.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";

export default defineVerb({
  name: "plugin rollback",
  description:
    "Put one bundle back as an earlier generation had it (files and choices), from the content cache only; never raises trust",
  schema: "gjc/rollback@1",
  args: {
    name: { type: "positional", description: "Installed (or once installed) bundle name", required: true },
    to: {
      type: "string",
      description: "The generation to restore (default: the newest one where the bundle differs from now)",
      valueHint: "generation",
    },
    ...scopeArgs,
    ...jsonArg,
  },
  examples: ["gjc plugin rollback my-bundle --project", "gjc plugin rollback my-bundle --user --to 3"],
  async run({ args, ctx }) {
    const to = args.to === undefined ? undefined : Number(args.to);
    if (to !== undefined && (!Number.isSafeInteger(to) || to < 1))
      throw usageError(
        `--to must be a generation number, not "${args.to}".`,
        "gjc plugin history lists them.",
        "invalid_option_value",
      );
    const { rollback } = await import("../../sets/rollback.ts");
    const { describeRollback } = await import("../render/sets.ts");
    const r = await rollback(ctx, scopeFromFlags(args) ?? "user", args.name, { to });
    return { json: { schema: "gjc/rollback@1", ok: true, ...r }, human: describeRollback(r) };
  },
});
