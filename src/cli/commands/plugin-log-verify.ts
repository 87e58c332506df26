import { verifyLog } from "../../sets/release-log.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeLogVerify } from "../render/release-log.ts";

export default defineVerb({
  name: "plugin log verify",
  description:
    "Recompute a release log from its files (signature, tree, duplicates) and check it extends the checkpoint this gjc remembers; changes nothing",
  schema: "gjc/log-verify@1",
  args: {
    dir: { type: "positional", description: "The log directory", required: true },
    against: {
      type: "string",
      description: "An older checkpoint of this log (a file kept from before): the log must extend it",
      valueHint: "checkpoint",
    },
    ...jsonArg,
  },
  examples: ["gjc plugin log verify gjc-log", "gjc plugin log verify gjc-log --against checkpoint.before"],
  async run({ args, ctx }) {
    const r = verifyLog(ctx, { dir: args.dir, against: args.against });
    return { json: { schema: "gjc/log-verify@1", ok: true, ...r }, human: describeLogVerify(r) };
  },
});
