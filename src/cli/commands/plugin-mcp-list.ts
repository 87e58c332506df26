import { ExitCode } from "../../core/exit-codes.ts";
import { listDeclaredServers } from "../../mcp/installed.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

export default defineVerb({
  name: "plugin mcp list",
  description: "List the MCP servers of installed GJC bundles with their state and policy verdict",
  schema: "gjc/mcp-list@1",
  args: { ...jsonArg },
  examples: ["gjc plugin mcp list", "gjc plugin mcp list --json"],
  async run({ ctx }) {
    const r = await listDeclaredServers(ctx);
    const s = ctx.out;
    const lines: string[] = [];
    if (r.servers.length === 0) lines.push("No MCP server is declared by an installed GJC bundle.");
    for (const d of r.servers) {
      const state = d.status === "active" ? s.green("active") : d.status === "disabled" ? s.dim("disabled") : s.red("quarantined");
      const policy = d.policy.ok ? s.green("policy ok") : s.red(`policy refused: ${d.policy.reason}`);
      lines.push(`${d.bundle}/${d.server} ${s.dim(`(${d.scope}, ${d.transport})`)} ${state}, ${policy}`, `  ${s.dim(d.target)}`);
      for (const reason of d.reasons) lines.push(`  ${s.dim(`[${reason.code}]`)} ${reason.message}`);
    }
    for (const scope of r.scopes.filter((x) => !x.ok)) lines.push(s.red(`The ${scope.scope} scope cannot be read: ${scope.problem ?? "damaged registry"}`));
    const ok = r.scopes.every((x) => x.ok);
    return { json: { schema: "gjc/mcp-list@1", ok, servers: r.servers, scopes: r.scopes }, human: lines.join("\n"), exit: ok ? ExitCode.ok : ExitCode.refused };
  },
});
