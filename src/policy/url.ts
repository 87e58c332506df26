import { hasControlChars } from "../bundle/names.ts";
import { classifyHost, normalizeHost } from "./host.ts";

export { classifyHost } from "./host.ts";

export type UrlStage = "raw" | "parse" | "scheme" | "host";
export type UrlVerdict = { ok: true; url: URL; host: string } | { ok: false; stage: UrlStage; reason: string };

const deny = (stage: UrlStage, reason: string): UrlVerdict => ({ ok: false, stage, reason });

/**
 * The synchronous stages (a)-(c) of DESIGN item 11 for a bundle MCP URL. Fails closed: the
 * first stage that objects decides, and its reason says what to change. Stage (d), the DNS
 * check, is `resolveAndCheck` in dns.ts and runs before any connection.
 */
export function classifyMcpUrl(raw: string): UrlVerdict {
  // (a) The raw string. The WHATWG parser silently drops tabs and newlines, trims C0 and
  // spaces and reads "\" as "/", so the string a person reviews could name another host
  // than the one we connect to; refuse every such character instead of repairing it.
  if (typeof raw !== "string" || raw === "") return deny("raw", "the URL is empty");
  if (hasControlChars(raw)) return deny("raw", "the URL contains a control character");
  if (/\s/.test(raw)) return deny("raw", "the URL contains a space or other whitespace");
  if (raw.includes("\\")) return deny("raw", "the URL contains a backslash");
  const literal = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)/.exec(raw);
  if (!literal) return deny("raw", "the URL must be written as https://host[:port]/path");
  const authority = literal[2];
  if (authority === "") return deny("raw", "the URL has no host after https://");
  if (authority.includes("@")) return deny("raw", 'the URL authority contains "@" (user info is never accepted)');

  // (b) The WHATWG parse, scheme and credentials.
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return deny("parse", "the URL does not parse (malformed host, port or IPv6 zone id)");
  }
  if (url.protocol !== "https:")
    return deny("scheme", `the scheme ${url.protocol} is not allowed; bundle MCP servers must use https:`);
  if (url.username !== "" || url.password !== "") return deny("scheme", "the URL embeds credentials");

  // (c) The normalized host.
  if (url.hostname === "") return deny("host", "the URL has no host");
  const host = classifyHost(url.hostname);
  if (!host.ok) return deny("host", host.reason);
  return { ok: true, url, host: normalizeHost(url.hostname) };
}
