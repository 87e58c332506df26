/**
 * `gjc plugin mcp list`: every MCP server an installed bundle declares, both families in one
 * list (GJC bundles' servers first, then C2 mcp.json servers), with the GJC scopes that could
 * not be read. Read-only. `ok` is false when a scope is unreadable (its servers are unknown).
 */
import { listC2McpServers, type C2McpEntry } from "../c2session/mcp-servers.ts";
import type { Context } from "../core/context.ts";
import type { Scope } from "../install/registry-types.ts";
import { listDeclaredServers, type DeclaredServer } from "./mcp-servers.ts";

export type ListedMcpServer = ({ family: "gjc" } & DeclaredServer) | C2McpEntry;

export interface McpListing {
  ok: boolean;
  servers: ListedMcpServer[];
  scopes: { scope: Scope; ok: boolean; problem?: string }[];
}

export async function listMcpServers(ctx: Context): Promise<McpListing> {
  const gjc = await listDeclaredServers(ctx);
  const c2 = await listC2McpServers(ctx);
  return {
    ok: gjc.scopes.every((s) => s.ok),
    servers: [...gjc.servers.map((s) => ({ family: "gjc" as const, ...s })), ...c2],
    scopes: gjc.scopes,
  };
}
