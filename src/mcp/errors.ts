import { flattenControlChars } from "../bundle/names.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode, type ExitCodeValue } from "../core/exit-codes.ts";

/**
 * The MCP client's error vocabulary. Each code says which side failed, so a host can tell a
 * policy refusal (exit 3) from an unreachable server (exit 4) from a broken one (exit 1).
 */
export type McpErrorCode =
  | "security_policy"
  | "mcp_launcher_missing"
  | "mcp_spawn_failed"
  | "mcp_timeout"
  | "mcp_server_exited"
  | "mcp_frame_too_large"
  | "mcp_protocol"
  | "mcp_error"
  | "mcp_unreachable"
  | "mcp_http_status"
  | "mcp_closed";

const EXIT: Record<McpErrorCode, ExitCodeValue> = {
  security_policy: ExitCode.refused,
  mcp_launcher_missing: ExitCode.failed,
  mcp_spawn_failed: ExitCode.failed,
  mcp_timeout: ExitCode.failed,
  mcp_server_exited: ExitCode.failed,
  mcp_frame_too_large: ExitCode.failed,
  mcp_protocol: ExitCode.failed,
  mcp_error: ExitCode.failed,
  mcp_unreachable: ExitCode.unreachable,
  mcp_http_status: ExitCode.failed,
  mcp_closed: ExitCode.failed,
};

export function mcpError(
  code: McpErrorCode,
  message: string,
  hint: string,
  details?: Record<string, unknown>,
): GjcError {
  return new GjcError({ code, message, hint, details, exit: EXIT[code] });
}

/** Server-supplied text shown in our messages: no control characters, bounded length. */
export function sanitizeServerText(value: unknown, max = 300): string {
  const s = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const clean = flattenControlChars(s).trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
