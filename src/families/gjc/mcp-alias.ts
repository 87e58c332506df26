import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { didYouMean } from "../../core/suggest.ts";
import { MCP_ALIAS_KEYS, MCP_TRANSPORTS, UNPRESERVABLE_MCP_KEYS, type McpTransport } from "./constants.ts";
import { describeValue, escapeKey, isPlainObject, quote } from "./fields.ts";
import type { GjcMcpEntry, Located } from "./manifest-types.ts";
import { parseMcpEntry, REMOTE_ONLY, reportTransportField, reportUnpreservable, STDIO_ONLY } from "./parse-mcps.ts";

/**
 * The Claude Code `mcpServers` map, normalized into canonical `mcps` entries as the seed says:
 * servers in their declared order, so the alias compiles to the same surfaces as the canonical
 * array written in that order (the reference sorts them by name; the seed's byte-equivalence
 * with the canonical spelling is what holds here), the transport taken from `type`, else
 * implied by `command` (stdio) or `url` (http), and only fields with a bundle-runtime
 * equivalent accepted. Each built entry then goes through the canonical entry parser, so the
 * alias compiles to the very same surfaces as its canonical spelling.
 */
export function normalizeMcpServers(sink: DiagnosticSink, value: unknown, at: string): Located<GjcMcpEntry>[] {
  if (!isPlainObject(value)) {
    sink.error(
      "invalid_manifest",
      at,
      `"mcpServers" must be a map of server name to configuration, not ${describeValue(value)}.`,
      'Write "mcpServers": { "<name>": { "command": "bun", "args": ["server.ts"] } }, or use the canonical "mcps" array.',
    );
    return [];
  }
  const out: Located<GjcMcpEntry>[] = [];
  // Object.keys is the declared order, except that JSON.parse puts integer-like names ("1")
  // first, as every JavaScript object does.
  const names = Object.keys(value);
  for (const name of names) {
    const label = `mcpServers[${JSON.stringify(name)}]`;
    const here = `${at}/${escapeKey(name)}`;
    const config = value[name];
    if (!isPlainObject(config)) {
      sink.error("invalid_manifest", here, `${label} must be an object, not ${describeValue(config)}.`);
      continue;
    }
    const before = sink.items.length;
    for (const key of Object.keys(config)) {
      if ((UNPRESERVABLE_MCP_KEYS as readonly string[]).includes(key)) reportUnpreservable(sink, key, label, here);
      else if (!(MCP_ALIAS_KEYS as readonly string[]).includes(key)) {
        sink.error(
          "unsupported_surface",
          `${here}/${escapeKey(key)}`,
          `${label} has the unknown key ${quote(key)}.${didYouMean(key, MCP_ALIAS_KEYS)}`,
          'An "mcpServers" entry takes type, command, args, cwd and url; the canonical "mcps" entry takes name, transport, command, args, cwd, url and sha256.',
        );
      }
    }
    const transport = aliasTransport(sink, config, label, here);
    if (transport !== undefined) {
      const foreign = transport === "stdio" ? REMOTE_ONLY : STDIO_ONLY;
      for (const key of foreign) if (config[key] !== undefined) reportTransportField(sink, key, transport, label, here);
    }
    if (sink.items.length !== before || transport === undefined) continue;
    const canonical: Record<string, unknown> = { name, transport };
    for (const key of ["command", "args", "cwd", "url"] as const)
      if (config[key] !== undefined) canonical[key] = config[key];
    const entry = parseMcpEntry(sink, canonical, label, here, true);
    if (entry) out.push({ at: here, entry });
  }
  return out;
}

function aliasTransport(
  sink: DiagnosticSink,
  config: Record<string, unknown>,
  label: string,
  here: string,
): McpTransport | undefined {
  if (config.type !== undefined) {
    if ((MCP_TRANSPORTS as readonly unknown[]).includes(config.type)) return config.type as McpTransport;
    sink.error(
      "invalid_manifest",
      `${here}/type`,
      `${label}.type must be one of ${MCP_TRANSPORTS.join(", ")}, not ${typeof config.type === "string" ? quote(config.type) : describeValue(config.type)}.`,
    );
    return undefined;
  }
  const hasCommand = typeof config.command === "string";
  const hasUrl = typeof config.url === "string";
  if (hasCommand && hasUrl) {
    sink.error(
      "invalid_manifest",
      here,
      `${label} declares both "command" and "url" without a "type".`,
      'Set "type" to "stdio" (and drop url) or to "http"/"sse" (and drop command).',
    );
    return undefined;
  }
  if (hasCommand) return "stdio";
  if (hasUrl) return "http";
  sink.error(
    "invalid_manifest",
    here,
    `${label} has no transport: no "type", "command" or "url".`,
    'Set "type" (stdio, http or sse), or give "command" (stdio) or "url" (http; sse must be named with "type").',
  );
  return undefined;
}
