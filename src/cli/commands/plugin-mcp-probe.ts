import { timeoutOption } from "../options.ts";
import { scopeFromFlags } from "../../install/install-command.ts";
import { probeInstalledServer } from "../../mcp/installed.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";

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
    const r = await probeInstalledServer(ctx, args.target, { scope: scopeFromFlags(args), timeoutMs });
    const s = ctx.out;
    const human = [
      `${s.bold(`${r.bundle}/${r.server}`)} ${s.dim(`(${r.scope}, ${r.transport})`)}: ${r.serverInfo.name} ${r.serverInfo.version}, MCP ${r.protocolVersion}`,
      r.tools.length === 0 ? "  no tools" : `  ${r.tools.length} tool${r.tools.length === 1 ? "" : "s"}:`,
      ...r.tools.map((t) => `    ${t.name}${t.description ? s.dim(` — ${t.description.split("\n")[0].slice(0, 100)}`) : ""}`),
    ].join("\n");
    return { json: { schema: "gjc/mcp-probe@1", ok: true, ...r }, human };
  },
});
