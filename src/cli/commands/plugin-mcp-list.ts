import { ExitCode } from "../../core/exit-codes.ts";
import { listC2McpServers } from "../../c2session/mcp-servers.ts";
import { listDeclaredServers } from "../../mcp/installed.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

export default defineVerb({
  name: "plugin mcp list",
  description: "List the MCP servers of installed GJC bundles and C2 mcp.json servers with their state and policy verdict",
  schema: "gjc/mcp-list@1",
  args: { ...jsonArg },
  examples: ["gjc plugin mcp list", "gjc plugin mcp list --json"],
  async run({ ctx }) {
    const r = await listDeclaredServers(ctx);
    const c2 = await listC2McpServers(ctx);
    const s = ctx.out;
    const lines: string[] = [];
    if (r.servers.length === 0 && c2.length === 0) lines.push("No MCP server is declared by an installed GJC bundle or a C2 bundle's mcp.json.");
    for (const d of r.servers) {
      const state = d.status === "active" ? s.green("active") : d.status === "disabled" ? s.dim("disabled") : d.status === "excluded" ? s.yellow("excluded") : s.red("quarantined");
      const policy = d.policy.ok ? s.green("policy ok") : s.red(`policy refused: ${d.policy.reason}`);
      lines.push(`${d.bundle}/${d.server} ${s.dim(`(${d.scope}, ${d.transport})`)} ${state}, ${policy}`, `  ${s.dim(d.target)}`);
      for (const reason of d.reasons) lines.push(`  ${s.dim(`[${reason.code}]`)} ${reason.message}`);
    }
    for (const d of c2) {
      const state = d.status === "active" ? s.green("active") : d.status === "disabled" ? s.dim("disabled") : d.status === "untrusted" ? s.yellow("untrusted") : s.red("quarantined");
      const probe = d.probe.ok ? s.green("startable") : s.yellow(`not started by gjc: ${d.probe.reason}`);
      lines.push(`${d.bundle}/${d.server} ${s.dim(`(c2, ${d.transport})`)} ${state}, ${probe}`, `  ${s.dim(d.target)}`);
      for (const reason of d.reasons) lines.push(`  ${s.dim(`[${reason.code}]`)} ${reason.message}`);
    }
    for (const scope of r.scopes.filter((x) => !x.ok)) lines.push(s.red(`The ${scope.scope} scope cannot be read: ${scope.problem ?? "damaged registry"}`));
    const ok = r.scopes.every((x) => x.ok);
    return { json: { schema: "gjc/mcp-list@1", ok, servers: [...r.servers.map((x) => ({ family: "gjc" as const, ...x })), ...c2], scopes: r.scopes }, human: lines.join("\n"), exit: ok ? ExitCode.ok : ExitCode.refused };
  },
});
