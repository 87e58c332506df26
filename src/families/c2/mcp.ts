/**
 * The root mcp.json of a C2 bundle, per Agent Plugins 1.0.0 (c2-notes §1.2/§1.3): closed
 * root and server objects, stdio / streamable-http / sse only, bundle-relative `./` commands
 * that exist without symlinks, no reserved environment variables, cwd in the bundle or the
 * plugin data dir, https URLs (http only to loopback), and the header rules of
 * src/policy/headers.ts. Every error here is fatal for the bundle.
 */
import { relativePathProblem, walkInside } from "../../bundle/path-safety.ts";
import { isDeniedEnvName } from "../../process/env.ts";
import { DiagnosticSink, pointer } from "../../core/diagnostics.ts";
import { headerIssues } from "../../policy/headers.ts";
import { AGENT_PLUGINS_MCP_SCHEMA } from "./rules.ts";
import { schemaDiagnostics } from "./schema-errors.ts";
import { HttpServer, McpRoot, StdioServer } from "./schemas.generated.ts";

export const MCP_FILE = "mcp.json";
const AT = `${MCP_FILE}#`;

export interface C2McpServer {
  name: string;
  type: "stdio" | "streamable-http" | "sse";
  command?: string;
  url?: string;
}

const RESERVED_ENV = new Set(["PLUGIN_ROOT", "PLUGIN_DATA"]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Validates a parsed mcp.json; returns the servers that passed and records every problem. */
export function checkMcpConfig(raw: unknown, sink: DiagnosticSink, bundleDir?: string): C2McpServer[] {
  if (!isObject(raw)) {
    sink.error(
      "invalid_mcp",
      AT,
      "mcp.json must hold a JSON object.",
      `Write { "$schema": "${AGENT_PLUGINS_MCP_SCHEMA}", "mcpServers": { … } }.`,
    );
    return [];
  }
  for (const d of schemaDiagnostics(McpRoot, raw, {
    at: AT,
    label: "mcp.json",
    nestedLabel: "",
    code: () => "invalid_mcp",
  }))
    sink.add(d);
  if (!isObject(raw.mcpServers)) return [];
  const servers: C2McpServer[] = [];
  for (const [name, server] of Object.entries(raw.mcpServers)) {
    const at = pointer(pointer(AT, "mcpServers"), name);
    if (!isObject(server)) continue; // reported by the root schema
    const start = sink.items.length;
    const type = server.type;
    if (type === undefined) {
      sink.error(
        "invalid_mcp",
        pointer(at, "type"),
        `MCP server ${name} has no type.`,
        'Add "type": "stdio", "streamable-http" or "sse".',
      );
      continue;
    }
    if (type === "http") {
      sink.error(
        "invalid_mcp",
        pointer(at, "type"),
        `MCP server ${name} declares type "http"; Agent Plugins calls it "streamable-http".`,
        'Write "type": "streamable-http".',
      );
      continue;
    }
    if (type === "stdio") {
      for (const d of schemaDiagnostics(StdioServer, server, {
        at,
        label: `mcpServers.${name}`,
        code: () => "invalid_mcp",
      }))
        sink.add(d);
      checkStdio(name, server, at, sink, bundleDir);
    } else if (type === "streamable-http" || type === "sse") {
      for (const d of schemaDiagnostics(HttpServer, server, {
        at,
        label: `mcpServers.${name}`,
        code: () => "invalid_mcp",
      }))
        sink.add(d);
      checkRemote(name, server, at, sink);
    } else {
      sink.error(
        "invalid_mcp",
        pointer(at, "type"),
        `MCP server ${name} has the unsupported transport ${JSON.stringify(type)}.`,
        'Use "stdio", "streamable-http" or "sse".',
      );
      continue;
    }
    // A server with only warnings (an env name that is left out) is still a server.
    if (!sink.items.slice(start).some((d) => d.severity === "error")) {
      servers.push({
        name,
        type,
        ...(typeof server.command === "string" ? { command: server.command } : {}),
        ...(typeof server.url === "string" ? { url: server.url } : {}),
      });
    }
  }
  return servers;
}

function checkStdio(
  name: string,
  s: Record<string, unknown>,
  at: string,
  sink: DiagnosticSink,
  bundleDir?: string,
): void {
  const command = s.command;
  if (typeof command === "string" && command !== "") {
    if (command.includes("${")) {
      sink.error(
        "invalid_mcp",
        pointer(at, "command"),
        `MCP server ${name}: the command contains "\${"; commands are not expanded.`,
        "Write a bare executable (node) or a bundle path starting with ./.",
      );
    } else if (command.startsWith("./")) {
      checkBundlePath(
        command.slice(2),
        "file",
        `MCP server ${name}: the command ${JSON.stringify(command)}`,
        pointer(at, "command"),
        sink,
        bundleDir,
      );
    } else if (command.includes("/") || command.includes("\\")) {
      sink.error(
        "invalid_mcp",
        pointer(at, "command"),
        `MCP server ${name}: the command ${JSON.stringify(command)} must be a bare executable or start with ./.`,
        `Write "./${command.replace(/^\/+/, "")}" for a file in the bundle.`,
      );
    }
  }
  if (isObject(s.env)) {
    for (const key of Object.keys(s.env)) {
      if (RESERVED_ENV.has(key))
        sink.error(
          "invalid_mcp",
          pointer(pointer(at, "env"), key),
          `MCP server ${name} may not set ${key}; the host sets it.`,
          "Remove it; ${PLUGIN_ROOT} and ${PLUGIN_DATA} are provided to the server.",
        );
      else if (isDeniedEnvName(key))
        sink.warning(
          "invalid_mcp",
          pointer(pointer(at, "env"), key),
          `MCP server ${name} sets ${key}, which gjc never passes to a server (loader switches, credential names and names that are not plain [A-Za-z_][A-Za-z0-9_]* never reach a child); it is left out.`,
          "Remove it: servers get the documented allow-list of host variables plus the other values declared here.",
        );
    }
  }
  const cwd = s.cwd;
  if (typeof cwd === "string") {
    const where = pointer(at, "cwd");
    const root = /^\$\{PLUGIN_ROOT\}(?:\/|$)/.exec(cwd);
    const data = /^\$\{PLUGIN_DATA\}(?:\/|$)/.exec(cwd);
    if (cwd.startsWith("./") || root) {
      const rest = cwd.startsWith("./") ? cwd.slice(2) : cwd.slice(root![0].length);
      if (rest.replace(/\/+$/, "") !== "")
        checkBundlePath(
          rest.replace(/\/+$/, ""),
          "dir",
          `MCP server ${name}: the cwd ${JSON.stringify(cwd)}`,
          where,
          sink,
          bundleDir,
        );
    } else if (data) {
      const rest = cwd.slice(data[0].length).replace(/\/+$/, "");
      const problem = rest === "" ? undefined : relativePathProblem(rest);
      if (problem)
        sink.error(
          "unsafe_path",
          where,
          `MCP server ${name}: the cwd ${JSON.stringify(cwd)} ${problem}.`,
          "Stay inside ${PLUGIN_DATA}.",
        );
    } else {
      sink.error(
        "invalid_mcp",
        where,
        `MCP server ${name}: the cwd ${JSON.stringify(cwd)} has an unsupported form.`,
        "Use ./dir, ${PLUGIN_ROOT}/dir or ${PLUGIN_DATA}/dir.",
      );
    }
  }
}

function checkBundlePath(
  rel: string,
  want: "file" | "dir",
  what: string,
  where: string,
  sink: DiagnosticSink,
  bundleDir?: string,
): void {
  const problem = relativePathProblem(rel);
  if (problem) {
    sink.error("unsafe_path", where, `${what} ${problem}.`, "Name a path inside the bundle.");
    return;
  }
  if (!bundleDir) return;
  const walk = walkInside(bundleDir, rel, want);
  if (walk.ok) return;
  if (walk.reason === "symlink")
    sink.error(
      "unsafe_path",
      where,
      `${what} goes through the symbolic link ${walk.at}.`,
      "Ship the real file or directory; links are never followed.",
    );
  else
    sink.error(
      "missing_file",
      where,
      `${what} does not exist in the bundle as a ${want === "file" ? "regular file" : "directory"}.`,
      "Check the path, relative to the bundle root.",
    );
}

function checkRemote(name: string, s: Record<string, unknown>, at: string, sink: DiagnosticSink): void {
  const url = s.url;
  if (typeof url === "string" && url !== "") {
    const problem = remoteUrlProblem(url);
    if (problem)
      sink.error(
        "invalid_mcp",
        pointer(at, "url"),
        `MCP server ${name}: the URL ${problem}.`,
        "Use https://…, or http:// only for localhost / a loopback address.",
      );
  }
  if (isObject(s.headers)) {
    for (const issue of headerIssues(s.headers))
      sink.error(
        "invalid_mcp",
        pointer(pointer(at, "headers"), issue.name),
        `MCP server ${name}: ${issue.problem}`,
        issue.hint,
      );
  }
}

/** Why an MCP URL is refused (never echoing it: it may carry a token), or undefined. */
export function remoteUrlProblem(raw: string): string | undefined {
  if (raw.includes("${")) return 'contains "${"; URLs are not expanded';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "does not parse";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return `uses the scheme ${url.protocol.slice(0, -1)}, not https`;
  if (url.username !== "" || url.password !== "") return "carries credentials";
  if (raw.includes("#")) return "has a fragment";
  if (url.protocol === "http:" && !isLoopback(url.hostname)) return "must use HTTPS outside loopback";
  return undefined;
}

function isLoopback(host: string): boolean {
  if (host === "localhost" || host === "[::1]") return true;
  const m = /^(\d+)\.\d+\.\d+\.\d+$/.exec(host);
  return m !== null && m[1] === "127";
}
