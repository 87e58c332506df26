import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { MCP_KEYS, MCP_TRANSPORTS, UNPRESERVABLE_MCP_KEYS, type McpTransport } from "./constants.ts";
import {
  checkEntryKeys,
  checkSafeName,
  describeValue,
  escapeKey,
  isPlainObject,
  optionalSha256,
  optionalString,
  quote,
  requiredString,
} from "./fields.ts";
import type { GjcMcpEntry, Located } from "./manifest-types.ts";

export const LOOSE_MCP_HINT_PREFIX =
  "The bundle runtime starts servers with an allow-listed environment and forwards no headers or credentials.";

/** A field the loose `.gjc/mcp.json` surface supports but a bundle server cannot carry. */
export function reportUnpreservable(sink: DiagnosticSink, key: string, label: string, at: string): void {
  sink.error(
    "unsupported_surface",
    `${at}/${escapeKey(key)}`,
    `${label} uses "${key}", which a GJC bundle MCP server cannot carry end to end.`,
    `${LOOSE_MCP_HINT_PREFIX} Drop "${key}", or move this server to the loose MCP config (mcpServers in <project>/.gjc/mcp.json or ~/.gjc/agent/mcp.json), directly or through the /extensions import.`,
  );
}

/** A field that has no meaning for the chosen transport (url on stdio; command/args/cwd on http/sse). */
export function reportTransportField(
  sink: DiagnosticSink,
  key: string,
  transport: McpTransport,
  label: string,
  at: string,
): void {
  sink.error(
    "unsupported_surface",
    `${at}/${escapeKey(key)}`,
    `${label} uses "${key}" with transport "${transport}", which that transport cannot use.`,
    "Use only command, args and cwd for stdio, or only url for http and sse; or move the server to the loose .gjc/mcp.json config.",
  );
}

export const STDIO_ONLY = ["command", "args", "cwd"] as const;
export const REMOTE_ONLY = ["url"] as const;

/**
 * One canonical `mcps` entry (also the second half of the `mcpServers` alias, which builds a
 * canonical entry first, so both spellings go through exactly these rules).
 */
export function parseMcpEntry(
  sink: DiagnosticSink,
  raw: unknown,
  label: string,
  here: string,
  alias = false,
): GjcMcpEntry | undefined {
  if (!isPlainObject(raw)) {
    sink.error(
      "invalid_manifest",
      here,
      `${label} must be an object { name, transport, command?, args?, cwd?, url?, sha256? }, not ${describeValue(raw)}.`,
    );
    return undefined;
  }
  const before = sink.items.length;
  for (const key of Object.keys(raw))
    if ((UNPRESERVABLE_MCP_KEYS as readonly string[]).includes(key)) reportUnpreservable(sink, key, label, here);
  checkEntryKeys(sink, raw, MCP_KEYS, label, here, UNPRESERVABLE_MCP_KEYS);
  const name = checkSafeName(
    sink,
    requiredString(sink, raw, "name", label, here),
    alias ? `${label} (the server name)` : `${label}.name`,
    alias ? here : `${here}/name`,
  );
  let transport: McpTransport | undefined;
  if (raw.transport === undefined)
    sink.error(
      "invalid_manifest",
      `${here}/transport`,
      `${label}.transport is missing; it must be one of ${MCP_TRANSPORTS.join(", ")}.`,
    );
  else if ((MCP_TRANSPORTS as readonly unknown[]).includes(raw.transport)) transport = raw.transport as McpTransport;
  else
    sink.error(
      "invalid_manifest",
      `${here}/transport`,
      `${label}.transport must be one of ${MCP_TRANSPORTS.join(", ")}, not ${typeof raw.transport === "string" ? quote(raw.transport) : describeValue(raw.transport)}.`,
    );
  const command = optionalString(sink, raw, "command", label, here);
  const cwd = optionalString(sink, raw, "cwd", label, here);
  const url = optionalString(sink, raw, "url", label, here);
  const sha256 = optionalSha256(sink, raw, label, here);
  let args: string[] | undefined;
  if (raw.args !== undefined) {
    if (Array.isArray(raw.args) && allStrings(raw.args)) args = raw.args as string[];
    else sink.error("invalid_manifest", `${here}/args`, `${label}.args must be an array of strings.`);
  }
  if (transport !== undefined) {
    const foreign = transport === "stdio" ? REMOTE_ONLY : STDIO_ONLY;
    for (const key of foreign) if (raw[key] !== undefined) reportTransportField(sink, key, transport, label, here);
  }
  if (sink.items.length !== before || name === undefined || transport === undefined) return undefined;
  const who = `MCP server ${quote(name)}`;
  if (transport === "stdio" && command === undefined) {
    sink.error(
      "invalid_mcp",
      here,
      `${who} uses transport stdio but has no command.`,
      'Add "command": "bun" (or "node") and "args": ["<bundled script>"].',
    );
    return undefined;
  }
  if (transport !== "stdio" && url === undefined) {
    sink.error("invalid_mcp", here, `${who} uses transport ${transport} but has no url.`, 'Add "url": "https://…".');
    return undefined;
  }
  if (transport !== "stdio" && sha256 !== undefined) {
    sink.error(
      "invalid_mcp",
      `${here}/sha256`,
      `${who}: sha256 pins the bundled server script, and a ${transport} server has none.`,
      "Remove sha256 from this entry.",
    );
    return undefined;
  }
  return {
    name,
    transport,
    ...(command !== undefined && { command }),
    ...(args !== undefined && { args }),
    ...(cwd !== undefined && { cwd }),
    ...(url !== undefined && { url }),
    ...(sha256 !== undefined && { sha256 }),
  };
}

/** Every element is a string (JSON arrays have no holes). */
const allStrings = (values: unknown[]): boolean => values.every((v) => typeof v === "string");

export function parseMcps(sink: DiagnosticSink, value: unknown[], at: string): Located<GjcMcpEntry>[] {
  return value.flatMap((raw, i) => {
    const entry = parseMcpEntry(sink, raw, `mcps[${i}]`, `${at}/${i}`);
    return entry ? [{ at: `${at}/${i}`, entry }] : [];
  });
}
