import { GjcError } from "../core/errors.ts";
import {
  callTool,
  Deadline,
  type Handshake,
  initialize,
  listPrompts,
  listResources,
  listTools,
  type McpPrompt,
  type McpResource,
  type McpTool,
} from "./protocol.ts";
import type { ClientIdentity } from "./client-identity.ts";
import { type Channel, RpcClient } from "./rpc-client.ts";

/** A live MCP session over any transport; `await using` closes it (and stops a stdio server) at the end of the block. */
export interface McpConnection extends AsyncDisposable {
  readonly label: string;
  readonly handshake: Handshake;
  listTools(timeoutMs: number): Promise<McpTool[]>;
  listPrompts(timeoutMs: number): Promise<McpPrompt[]>;
  listResources(timeoutMs: number): Promise<McpResource[]>;
  callTool(name: string, args: Record<string, unknown>, timeoutMs: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Opens a channel with `open`, runs the MCP handshake within the deadline, and closes the
 * channel again on any failure (so a failed connect never leaves a process or socket behind).
 */
export async function connectOver(
  label: string,
  deadline: Deadline,
  identity: ClientIdentity,
  open: (client: RpcClient) => Channel | Promise<Channel>,
): Promise<McpConnection> {
  const client = new RpcClient(label);
  const channel = await open(client);
  client.attach(channel);
  let handshake: Handshake;
  try {
    handshake = await initialize(client, label, deadline, identity);
  } catch (e) {
    await channel.close();
    throw e;
  }
  return {
    label,
    handshake,
    listTools: (ms) => listTools(client, label, handshake, new Deadline(ms)),
    listPrompts: (ms) => listPrompts(client, label, handshake, new Deadline(ms)),
    listResources: (ms) => listResources(client, label, handshake, new Deadline(ms)),
    callTool: (name, args, ms) => callTool(client, name, args, new Deadline(ms)),
    close: () => channel.close(),
    [Symbol.asyncDispose]: () => channel.close(),
  };
}

/** Re-raises a GjcError with extra details (the server's stderr, its pid) merged in. */
export function withDetails(e: unknown, extra: Record<string, unknown>): unknown {
  if (!(e instanceof GjcError)) return e;
  const base = typeof e.details === "object" && e.details !== null ? (e.details as Record<string, unknown>) : {};
  return new GjcError({ code: e.code, message: e.message, hint: e.hint, exit: e.exit, details: { ...base, ...extra } });
}
