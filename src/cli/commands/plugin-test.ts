import { testBundle } from "../../app/conformance.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { timeoutOption } from "../options.ts";
import { describeConformance } from "../render/authoring.ts";
import { sandboxWarnings } from "../sandbox-warnings.ts";

export default defineVerb({
  name: "plugin test",
  description:
    "Run conformance checks on a bundle folder without installing it (handshake, calls, module loads, MCP probes)",
  schema: "gjc/test@1",
  args: {
    dir: { type: "positional", description: "Bundle directory", required: true },
    args: {
      type: "string",
      description: 'C2: sample arguments by command id, e.g. \'{"ns.cmd": {"x": 1}}\' (default: gjc.test.json)',
      valueHint: "json",
    },
    timeout: {
      type: "string",
      description: "Per-step timeout in milliseconds (handshake, call, load, probe; default 10000)",
      valueHint: "ms",
    },
    ...jsonArg,
  },
  examples: ["gjc plugin test ./my-plugin", `gjc plugin test ./my-plugin --args '{"demo.greet": {"name": "Ada"}}'`],
  async run({ args, ctx }) {
    const timeoutMs = timeoutOption(args.timeout);
    const r = await testBundle(ctx, args.dir, { args: args.args, timeoutMs });
    return {
      json: { schema: "gjc/test@1", ...r, ...sandboxWarnings() },
      human: describeConformance(r, ctx.out),
      exit: r.ok ? ExitCode.ok : ExitCode.failed,
    };
  },
});
