import { monitorLog } from "../../sets/release-log.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeLogMonitor } from "../render/release-log.ts";

export default defineVerb({
  name: "plugin log monitor",
  description: "List the releases of a log not signed by one of the given keys (exit 0 unless --exit-code)",
  schema: "gjc/log-monitor@1",
  args: {
    dir: { type: "positional", description: "The log directory", required: true },
    key: {
      type: "string",
      description: "Your signer fingerprints (SHA256:…), comma-separated",
      valueHint: "fpr[,fpr]",
    },
    "exit-code": { type: "boolean", description: "Exit 1 when a release is not signed by one of the keys" },
    ...jsonArg,
  },
  examples: ["gjc plugin log monitor gjc-log --key SHA256:abc…,SHA256:def… --exit-code"],
  async run({ args, ctx }) {
    const keys =
      args.key === undefined
        ? []
        : args.key
            .split(",")
            .map((k) => k.trim())
            .filter((k) => k !== "");
    const r = monitorLog(ctx, { dir: args.dir, keys });
    const ok = r.releases.length === 0;
    return {
      json: { schema: "gjc/log-monitor@1", ...r, ok },
      human: describeLogMonitor(r),
      exit: !ok && args["exit-code"] ? 1 : 0,
    };
  },
});
