import { ExitCode } from "../../core/exit-codes.ts";
import { listMcpServers } from "../../app/mcp-list.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeMcpServers } from "../render/mcp-list.ts";

export default defineVerb({
  name: "plugin mcp list",
  description:
    "List the MCP servers of installed GJC bundles and C2 mcp.json servers with their state and policy verdict",
  schema: "gjc/mcp-list@1",
  args: { ...jsonArg },
  examples: ["gjc plugin mcp list", "gjc plugin mcp list --json"],
  async run({ ctx }) {
    const r = await listMcpServers(ctx);
    return {
      json: { schema: "gjc/mcp-list@1", ...r },
      human: describeMcpServers(r, ctx.out),
      exit: r.ok ? ExitCode.ok : ExitCode.refused,
    };
  },
});
