import { scopeFromFlags } from "../../store/resolve.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";

export default defineVerb({
  name: "plugin history",
  description:
    "List the scope's retained generations (last 10): what was installed, pins, choices, by which command, when",
  schema: "gjc/history@1",
  args: {
    name: { type: "positional", description: "Only this bundle", required: false },
    ...scopeArgs,
    ...jsonArg,
  },
  examples: ["gjc plugin history --project", "gjc plugin history my-bundle --user --json"],
  async run({ args, ctx }) {
    const { scopeHistory } = await import("../../sets/rollback.ts");
    const { describeHistory } = await import("../render/sets.ts");
    const r = scopeHistory(ctx, scopeFromFlags(args) ?? "user", args.name);
    return {
      json: { schema: "gjc/history@1", ok: true, ...(args.name !== undefined ? { name: args.name } : {}), ...r },
      human: describeHistory(r, args.name),
    };
  },
});
