import type { ClientIdentity } from "./client-identity.ts";
import { mcpError, sanitizeServerText } from "./errors.ts";
import { MAX_TOOL_PAGES, MAX_TOOLS } from "./limits.ts";
import type { RpcClient } from "./rpc-client.ts";

/** The version we ask for, and every version we can talk (the server picks). */
export const PREFERRED_PROTOCOL_VERSION = "2025-06-18";
export const SUPPORTED_PROTOCOL_VERSIONS = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
] as const;

export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
}

export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** Tool annotations (readOnlyHint, destructiveHint…), kept because tool pins hash them. */
  annotations?: Record<string, unknown>;
}

/** A prompt as `prompts/list` gives it (what a user is offered to run). */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: unknown[];
}

/** A resource as `resources/list` gives it (what a model may be handed to read). */
export interface McpResource {
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface Handshake {
  serverInfo: ServerInfo;
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  instructions?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A monotonic deadline shared by every step of one operation. */
export class Deadline {
  private readonly end: number;
  constructor(readonly totalMs: number) {
    this.end = performance.now() + totalMs;
  }
  remaining(): number {
    return Math.max(0, this.end - performance.now());
  }
}

/** `initialize`, then `notifications/initialized` (MCP lifecycle). */
export async function initialize(
  client: RpcClient,
  label: string,
  deadline: Deadline,
  identity: ClientIdentity,
): Promise<Handshake> {
  const raw = await client.request(
    "initialize",
    {
      protocolVersion: PREFERRED_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: identity.name, version: identity.version },
    },
    deadline.remaining(),
  );
  const bad = (what: string) =>
    mcpError(
      "mcp_protocol",
      `${label} answered initialize with ${what}`,
      "the server does not follow the MCP lifecycle; fix it or report it to its author",
    );
  if (!isObject(raw)) throw bad("something that is not an object");
  if (typeof raw.protocolVersion !== "string") throw bad("no protocolVersion");
  if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(raw.protocolVersion))
    throw mcpError(
      "mcp_protocol",
      `${label} wants MCP protocol version ${sanitizeServerText(raw.protocolVersion, 40)}, which gjc does not speak`,
      `gjc speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}; use a server release that supports one of them`,
    );
  const info = raw.serverInfo;
  if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string")
    throw bad("no serverInfo {name, version}");
  if (raw.capabilities !== undefined && !isObject(raw.capabilities)) throw bad("capabilities that are not an object");
  client.channel.setProtocolVersion?.(raw.protocolVersion);
  await client.notify("notifications/initialized");
  const serverInfo: ServerInfo = {
    name: sanitizeServerText(info.name, 200),
    version: sanitizeServerText(info.version, 100),
  };
  if (typeof info.title === "string") serverInfo.title = sanitizeServerText(info.title, 200);
  const out: Handshake = {
    serverInfo,
    protocolVersion: raw.protocolVersion,
    capabilities: (raw.capabilities as Record<string, unknown>) ?? {},
  };
  if (typeof raw.instructions === "string") out.instructions = raw.instructions;
  return out;
}

/** Every tool the server offers, following `nextCursor` within bounds. */
export async function listTools(
  client: RpcClient,
  label: string,
  handshake: Handshake,
  deadline: Deadline,
): Promise<McpTool[]> {
  // A server without the tools capability has none to list (and may not implement the method).
  if (!isObject(handshake.capabilities.tools)) return [];
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const raw = await client.request("tools/list", cursor === undefined ? {} : { cursor }, deadline.remaining());
    if (!isObject(raw) || !Array.isArray(raw.tools))
      throw mcpError(
        "mcp_protocol",
        `${label} answered tools/list without a tools array`,
        "the server does not follow MCP; fix it or report it to its author",
      );
    for (const t of raw.tools) {
      if (!isObject(t) || typeof t.name !== "string" || t.name === "" || !isObject(t.inputSchema))
        throw mcpError(
          "mcp_protocol",
          `${label} listed a tool without a name or an inputSchema object`,
          "every MCP tool needs a name and a JSON Schema for its input",
        );
      const tool: McpTool = { name: t.name, inputSchema: t.inputSchema };
      if (typeof t.title === "string") tool.title = t.title;
      if (typeof t.description === "string") tool.description = t.description;
      if (isObject(t.annotations)) tool.annotations = t.annotations;
      tools.push(tool);
      if (tools.length > MAX_TOOLS)
        throw mcpError(
          "mcp_protocol",
          `${label} lists more than ${MAX_TOOLS} tools`,
          "no host can use that many tools from one server",
        );
    }
    if (typeof raw.nextCursor !== "string" || raw.nextCursor === "") return tools;
    cursor = raw.nextCursor;
  }
  throw mcpError(
    "mcp_protocol",
    `${label} kept paginating tools/list past ${MAX_TOOL_PAGES} pages`,
    "the server's cursor never ends; fix it or report it to its author",
  );
}

/**
 * Every item of a paginated MCP list (`prompts/list`, `resources/list`) within the same bounds
 * as tools; [] when the server does not advertise the capability (it need not implement it).
 */
async function listAll<T>(
  client: RpcClient,
  label: string,
  handshake: Handshake,
  deadline: Deadline,
  capability: string,
  field: string,
  item: (v: Record<string, unknown>) => T | undefined,
): Promise<T[]> {
  if (!isObject(handshake.capabilities[capability])) return [];
  const out: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const raw = await client.request(`${field}/list`, cursor === undefined ? {} : { cursor }, deadline.remaining());
    if (!isObject(raw) || !Array.isArray(raw[field]))
      throw mcpError(
        "mcp_protocol",
        `${label} answered ${field}/list without a ${field} array`,
        "the server does not follow MCP; fix it or report it to its author",
      );
    for (const v of raw[field] as unknown[]) {
      const got = isObject(v) ? item(v) : undefined;
      if (got === undefined)
        throw mcpError(
          "mcp_protocol",
          `${label} listed one of its ${field} without the fields MCP requires`,
          "fix the server or report it to its author",
        );
      out.push(got);
      if (out.length > MAX_TOOLS)
        throw mcpError(
          "mcp_protocol",
          `${label} lists more than ${MAX_TOOLS} ${field}`,
          "no host can use that many from one server",
        );
    }
    if (typeof raw.nextCursor !== "string" || raw.nextCursor === "") return out;
    cursor = raw.nextCursor;
  }
  throw mcpError(
    "mcp_protocol",
    `${label} kept paginating ${field}/list past ${MAX_TOOL_PAGES} pages`,
    "the server's cursor never ends; fix it or report it to its author",
  );
}

const optionalText = (v: Record<string, unknown>, keys: readonly string[]): Record<string, string> =>
  Object.fromEntries(keys.filter((k) => typeof v[k] === "string").map((k) => [k, v[k] as string]));

export function listPrompts(
  client: RpcClient,
  label: string,
  handshake: Handshake,
  deadline: Deadline,
): Promise<McpPrompt[]> {
  return listAll(client, label, handshake, deadline, "prompts", "prompts", (v) =>
    typeof v.name === "string" && v.name !== ""
      ? {
          name: v.name,
          ...optionalText(v, ["title", "description"]),
          ...(Array.isArray(v.arguments) ? { arguments: v.arguments } : {}),
        }
      : undefined,
  );
}

export function listResources(
  client: RpcClient,
  label: string,
  handshake: Handshake,
  deadline: Deadline,
): Promise<McpResource[]> {
  return listAll(client, label, handshake, deadline, "resources", "resources", (v) =>
    typeof v.uri === "string" && v.uri !== ""
      ? { uri: v.uri, ...optionalText(v, ["name", "title", "description", "mimeType"]) }
      : undefined,
  );
}

/** `tools/call`, for hosts and tests that go past the probe. */
export async function callTool(
  client: RpcClient,
  name: string,
  args: Record<string, unknown>,
  deadline: Deadline,
): Promise<Record<string, unknown>> {
  const raw = await client.request("tools/call", { name, arguments: args }, deadline.remaining());
  if (!isObject(raw))
    throw mcpError(
      "mcp_protocol",
      `the server answered tools/call with something that is not an object`,
      "the server does not follow MCP",
    );
  return raw;
}
