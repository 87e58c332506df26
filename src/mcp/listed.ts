import type { McpConnection } from "./connection.ts";
import type { Deadline, McpPrompt, McpResource } from "./protocol.ts";

/**
 * What a probe reads besides the tools: the prompts and the resources a server offers, each
 * only when its capability is advertised. Pins cover them too (src/mcp/pins.ts): a server that
 * keeps its tools but changes a prompt or a resource list has changed what it serves.
 */
export async function listedBesideTools(
  conn: McpConnection,
  deadline: Deadline,
): Promise<{ prompts?: McpPrompt[]; resources?: McpResource[] }> {
  const caps = conn.handshake.capabilities;
  const has = (k: string) => typeof caps[k] === "object" && caps[k] !== null && !Array.isArray(caps[k]);
  return {
    ...(has("prompts") ? { prompts: await conn.listPrompts(deadline.remaining()) } : {}),
    ...(has("resources") ? { resources: await conn.listResources(deadline.remaining()) } : {}),
  };
}
