import { classifyMcpUrl, type UrlVerdict } from "../policy/url.ts";
import { type ClientIdentity, ORDINARY_CLIENT, userAgentOf } from "./client-identity.ts";
import { type McpConnection, connectOver } from "./connection.ts";
import { mcpError } from "./errors.ts";
import { startStreamableHttpChannel } from "./http-transport.ts";
import { DEFAULT_PROBE_TIMEOUT_MS } from "./limits.ts";
import type { AddressCheck } from "./pinned-fetch.ts";
import { listedBesideTools } from "./listed.ts";
import { Deadline, type Handshake, type McpPrompt, type McpResource, type McpTool } from "./protocol.ts";
import { startSseChannel } from "./sse-transport.ts";

export interface HttpServerOptions {
  url: string;
  /** "http" is streamable HTTP; "sse" the older HTTP+SSE transport. */
  transport: "http" | "sse";
  timeoutMs?: number;
  label?: string;
  /** Stage (d) of DESIGN item 11; tests inject one, the CLI never does. */
  addressCheck?: AddressCheck;
  /** Extra trust roots (PEM) for the server certificate; tests only. */
  ca?: string | string[];
  /** URL rules other than DESIGN item 11 (C2 mcp.json servers: Agent Plugins). */
  judgeUrl?: (raw: string) => UrlVerdict;
  /** Who gjc says it is (src/mcp/client-identity.ts); the ordinary client unless the user chose one. */
  client?: ClientIdentity;
}

export interface HttpProbeResult
  extends Pick<Handshake, "serverInfo" | "protocolVersion" | "capabilities" | "instructions"> {
  tools: McpTool[];
  /** Present when the server advertises the capability: pinned with the tools (src/mcp/pins.ts). */
  prompts?: McpPrompt[];
  resources?: McpResource[];
}

/** Connects to a bundle's https MCP server under DESIGN item 11 and completes the handshake. */
export async function connectHttpServer(opts: HttpServerOptions): Promise<McpConnection> {
  const label = opts.label ?? "MCP server";
  const verdict = (opts.judgeUrl ?? classifyMcpUrl)(opts.url);
  if (!verdict.ok)
    throw mcpError(
      "security_policy",
      `${label}: the url is refused (${verdict.stage}): ${verdict.reason}`,
      "bundle MCP servers must be public https endpoints; change the url in the bundle manifest",
    );
  const deadline = new Deadline(opts.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
  const channelOpts = {
    url: verdict.url,
    label,
    addressCheck: opts.addressCheck,
    judgeUrl: opts.judgeUrl,
    ca: opts.ca,
    userAgent: userAgentOf(opts.client ?? ORDINARY_CLIENT),
  };
  return connectOver(label, deadline, opts.client ?? ORDINARY_CLIENT, (client) =>
    opts.transport === "sse" ? startSseChannel(channelOpts, client) : startStreamableHttpChannel(channelOpts, client),
  );
}

/** `initialize` → `notifications/initialized` → `tools/list` over https, then disconnects. */
export async function probeHttpServer(opts: HttpServerOptions): Promise<HttpProbeResult> {
  const deadline = new Deadline(opts.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
  const conn = await connectHttpServer({ ...opts, timeoutMs: deadline.totalMs });
  try {
    const tools = await conn.listTools(deadline.remaining());
    const listed = await listedBesideTools(conn, deadline);
    const { serverInfo, protocolVersion, capabilities, instructions } = conn.handshake;
    return {
      serverInfo,
      protocolVersion,
      capabilities,
      ...(instructions !== undefined ? { instructions } : {}),
      tools,
      ...listed,
    };
  } finally {
    await conn.close();
  }
}
