import { timeoutOption } from "../options.ts";
import { scopeFromFlags } from "../../store/resolve.ts";
import { probeAndPin } from "../../app/mcp-probe.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeMcpProbe } from "../render/mcp-pins.ts";
import { sandboxWarnings } from "../sandbox-warnings.ts";

export default defineVerb({
  name: "plugin mcp probe",
  description: "Start or connect to one declared MCP server under the policy, list its tools, and stop it",
  schema: "gjc/mcp-probe@1",
  args: {
    target: { type: "positional", description: "<bundle>/<server>", required: true },
    ...scopeArgs,
    timeout: { type: "string", description: "Milliseconds for the whole probe (default 10000)", valueHint: "ms" },
    ...jsonArg,
  },
  examples: ["gjc plugin mcp probe docs-bundle/docs", "gjc plugin mcp probe docs-bundle/remote --json"],
  async run({ args, ctx }) {
    const timeoutMs = timeoutOption(args.timeout);
    const scope = scopeFromFlags(args);
    // The probe pins the server's tool definitions on first success and holds it to them after (src/app/mcp-probe.ts).
    const r = await probeAndPin(ctx, args.target, { scope, timeoutMs });
    return {
      json: { schema: "gjc/mcp-probe@1", ok: true, ...r, ...sandboxWarnings() },
      human: describeMcpProbe(r, ctx.out),
    };
  },
});
