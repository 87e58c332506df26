import { ExitCode } from "../../core/exit-codes.ts";
import { listC2McpServers } from "../../c2session/mcp-servers.ts";
import { listDeclaredServers } from "../../mcp/installed.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeMcpServers } from "../render/mcp-list.ts";

export default defineVerb({
  name: "plugin mcp list",
  description: "List the MCP servers of installed GJC bundles and C2 mcp.json servers with their state and policy verdict",
  schema: "gjc/mcp-list@1",
  args: { ...jsonArg },
  examples: ["gjc plugin mcp list", "gjc plugin mcp list --json"],
  async run({ ctx }) {
    const r = await listDeclaredServers(ctx);
    const c2 = await listC2McpServers(ctx);
    const ok = r.scopes.every((x) => x.ok);
    return { json: { schema: "gjc/mcp-list@1", ok, servers: [...r.servers.map((x) => ({ family: "gjc" as const, ...x })), ...c2], scopes: r.scopes }, human: describeMcpServers(r, c2, ctx.out), exit: ok ? ExitCode.ok : ExitCode.refused };
  },
});
