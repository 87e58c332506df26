/**
 * HTTP header rules for headers a bundle declares (C2 mcp.json, DESIGN §2 item 11): names
 * are RFC 9110 tokens, values visible ASCII with inner SP/HTAB, no `${` (nothing is
 * expanded, so a placeholder would be sent verbatim), unique case-insensitively, and never
 * a header that decides routing or message framing, which only the client may set.
 */

/** RFC 9110 §5.6.2 token: 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII (0x21-0x7E) with SP and HTAB inside, not at the ends (RFC 9110 §5.5). */
const FIELD_VALUE = /^(?:[\x21-\x7e](?:[\x20\x09\x21-\x7e]*[\x21-\x7e])?)?$/;

/** Host plus the framing and hop-by-hop headers (RFC 9110 §7.6.1, RFC 9112, RFC 9113 §8.2.2). */
export const FORBIDDEN_HEADERS: ReadonlySet<string> = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "upgrade",
  "proxy-authenticate",
  "proxy-authorization",
  "http2-settings",
]);

export interface HeaderIssue {
  /** The header name as written. */
  name: string;
  /** Whether the name or the value is at fault (values are never echoed: they may be secrets). */
  part: "name" | "value";
  problem: string;
  hint: string;
}

/** Every problem of a declared header map; an empty list means it may be sent. */
export function headerIssues(headers: Record<string, unknown>): HeaderIssue[] {
  const issues: HeaderIssue[] = [];
  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) {
      issues.push({
        name,
        part: "name",
        problem: `The header name ${JSON.stringify(name)} is not an RFC 9110 token.`,
        hint: "Use letters, digits and !#$%&'*+-.^_`|~ only (no spaces, colons or non-ASCII).",
      });
      continue;
    }
    const lower = name.toLowerCase();
    if (FORBIDDEN_HEADERS.has(lower)) {
      issues.push({
        name,
        part: "name",
        problem: `The header ${name} may not be set by a bundle: it controls routing, framing or the connection.`,
        hint: "Remove it; the HTTP client sets it.",
      });
    }
    const prior = seen.get(lower);
    if (prior !== undefined) {
      issues.push({
        name,
        part: "name",
        problem: `The header ${name} repeats ${prior} (header names are case-insensitive).`,
        hint: "Keep one of them.",
      });
    } else seen.set(lower, name);
    if (typeof value !== "string") {
      issues.push({
        name,
        part: "value",
        problem: `The value of header ${name} must be a string.`,
        hint: "Quote the value.",
      });
      continue;
    }
    if (value.includes("${")) {
      issues.push({
        name,
        part: "value",
        problem: `The value of header ${name} contains "\${"; placeholders are not expanded and would be sent verbatim.`,
        hint: "Write the literal value, or leave authentication to the server's own flow.",
      });
    } else if (!FIELD_VALUE.test(value)) {
      issues.push({
        name,
        part: "value",
        problem: `The value of header ${name} has characters outside visible ASCII (or leading/trailing spaces, CR, LF, control characters).`,
        hint: "Use printable ASCII; encode anything else.",
      });
    }
  }
  return issues;
}
