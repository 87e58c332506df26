import { applyScaffold } from "../../scaffold/apply.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeScaffoldApply } from "../render/scaffold.ts";

export default defineVerb({
  name: "plugin scaffold apply",
  description: "Copy a scaffold's files into a target directory; never overwrites, all or nothing",
  schema: "gjc/plugin-scaffold-apply@1",
  args: {
    scaffold: { type: "positional", description: "<bundle>/<scaffold>", required: true },
    target: {
      type: "positional",
      description: "Target directory (created when missing; its parent must exist)",
      required: true,
    },
    "dry-run": { type: "boolean", description: "Check every path and the installed bytes, write nothing" },
    ...jsonArg,
  },
  examples: [
    "gjc plugin scaffold apply office/report ./docs --dry-run",
    "gjc plugin scaffold apply office/report ./docs --json",
  ],
  async run({ args, ctx }) {
    const r = await applyScaffold(ctx, {
      address: args.scaffold,
      target: args.target,
      dryRun: Boolean(args["dry-run"]),
    });
    return {
      json: { schema: "gjc/plugin-scaffold-apply@1", ok: true, ...r },
      human: describeScaffoldApply(ctx.out, r),
    };
  },
});
