import { scopeFromFlags } from "../../store/resolve.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";

export default defineVerb({
  name: "plugin outdated",
  description:
    "Show, per installed bundle, the installed pin and the newest available (git branch head or highest semver tag, catalog version)",
  schema: "gjc/outdated@1",
  args: {
    ...scopeArgs,
    "exit-code": {
      type: "boolean",
      description: "Exit 1 when something is outdated (for CI); otherwise updates are never an error",
    },
    ...jsonArg,
  },
  examples: ["gjc plugin outdated", "gjc plugin outdated --project --exit-code", "gjc plugin outdated --json"],
  async run({ args, ctx }) {
    const scope = scopeFromFlags(args);
    const { outdated } = await import("../../sets/outdated.ts");
    const { describeOutdated } = await import("../render/sets.ts");
    const r = await outdated(ctx, scope ? [scope] : ["user", "project"]);
    return {
      json: { schema: "gjc/outdated@1", ok: true, ...r },
      human: describeOutdated(r),
      exit: args["exit-code"] && r.outdated > 0 ? 1 : 0,
    };
  },
});
