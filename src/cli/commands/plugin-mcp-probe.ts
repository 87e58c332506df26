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
    const scope = scopeFromFlags(args);
    const r: { bundle: string; server: string; transport: string; scope?: string; serverInfo: { name: string; version: string }; protocolVersion: string; tools: { name: string; description?: string }[] } =
      await probeInstalledServer(ctx, args.target, { scope, timeoutMs }).catch(async (e) => {
        // Not a GJC bundle: a C2 bundle's mcp.json server (GJC is looked up first, as everywhere).
        const { isC2Bundle, probeC2Server } = await import("../../c2session/mcp-servers.ts");
        if ((e as { code?: string }).code !== "not_installed" || scope !== undefined || !(await isC2Bundle(ctx, args.target.split("/")[0]))) throw e;
        return probeC2Server(ctx, args.target, { timeoutMs });
      });
    const s = ctx.out;
    const human = [
      `${s.bold(`${r.bundle}/${r.server}`)} ${s.dim(`(${r.scope ?? "c2"}, ${r.transport})`)}: ${r.serverInfo.name} ${r.serverInfo.version}, MCP ${r.protocolVersion}`,
      r.tools.length === 0 ? "  no tools" : `  ${r.tools.length} tool${r.tools.length === 1 ? "" : "s"}:`,
      ...r.tools.map((t) => `    ${t.name}${t.description ? s.dim(` — ${t.description.split("\n")[0].slice(0, 100)}`) : ""}`),
    ].join("\n");
    return { json: { schema: "gjc/mcp-probe@1", ok: true, ...r }, human };
  },
});
