import { timeoutOption } from "../options.ts";
import { scopeFromFlags } from "../../store/resolve.ts";
import { probeAndPin } from "../../mcp/pins-probe.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";
import { describePin } from "../render/mcp-pins.ts";

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
    // The probe pins the server's tool definitions on first success and holds it to them after (src/mcp/pins-probe.ts).
    const r = await probeAndPin(ctx, args.target, { scope, timeoutMs });
    const s = ctx.out;
    const human = [
      `${s.bold(`${r.bundle}/${r.server}`)} ${s.dim(`(${r.scope ?? "c2"}, ${r.transport})`)}: ${r.serverInfo.name} ${r.serverInfo.version}, MCP ${r.protocolVersion}`,
      r.tools.length === 0 ? "  no tools" : `  ${r.tools.length} tool${r.tools.length === 1 ? "" : "s"}:`,
      ...r.tools.map((t) => `    ${t.name}${t.description ? s.dim(` — ${t.description.split("\n")[0].slice(0, 100)}`) : ""}`),
      describePin(r.pin, ctx.out),
    ].join("\n");
    return { json: { schema: "gjc/mcp-probe@1", ok: true, ...r }, human };
  },
});
