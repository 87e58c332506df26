import { deniedIpv4Range, formatIpv4, looksNumericIpv4, parseIpv4 } from "./ipv4.ts";
import { judgeIpv6, parseIpv6 } from "./ipv6.ts";

export type HostVerdict = { ok: true; kind: "name" | "ipv4" | "ipv6" } | { ok: false; reason: string };

/**
 * Names that always mean "this machine" or "this site", wherever they are resolved. A name
 * equal to one of these or under it is denied (DESIGN item 11(c)).
 */
export const DENIED_NAME_SUFFIXES = ["localhost", "localhost.localdomain", "local", "internal", "home.arpa"] as const;

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * Classifies a host: a DNS name, an IPv4 address in any WHATWG spelling, or an IPv6 literal
 * (brackets optional). It is used on URL hosts (already normalized by the parser) and on DNS
 * answers, so it never trusts that a string was normalized first.
 */
export function classifyHost(host: string): HostVerdict {
  if (typeof host !== "string" || host === "") return { ok: false, reason: "the host is empty" };
  if (/[\u0000-\u0020\u007f-\u009f]/.test(host))
    return { ok: false, reason: "the host contains a control character or a space" };

  if (host.startsWith("[") || host.includes(":")) {
    if (host.includes("%")) return { ok: false, reason: `IPv6 zone ids are not accepted: ${host}` };
    const groups = parseIpv6(host);
    if (!groups) return { ok: false, reason: `not a valid IPv6 address: ${host}` };
    const v = judgeIpv6(groups);
    return v.ok ? { ok: true, kind: "ipv6" } : { ok: false, reason: `${host} is ${v.reason}` };
  }

  if (looksNumericIpv4(host)) {
    const value = parseIpv4(host);
    if (value === undefined)
      return { ok: false, reason: `${host} looks like a numeric IPv4 address but is not a valid one` };
    const denied = deniedIpv4Range(value);
    if (denied) {
      const canonical = formatIpv4(value);
      const shown = canonical === host ? host : `${host} (= ${canonical})`;
      return { ok: false, reason: `${shown} is ${denied}` };
    }
    return { ok: true, kind: "ipv4" };
  }

  return classifyName(host);
}

function classifyName(host: string): HostVerdict {
  if (/[^\x21-\x7e]/.test(host))
    return { ok: false, reason: `the host name is not ASCII (use its punycode form): ${host}` };
  // One trailing dot is the fully-qualified spelling of the same name; more is malformed.
  const name = (host.endsWith(".") ? host.slice(0, -1) : host).toLowerCase();
  if (name === "") return { ok: false, reason: "the host is empty" };
  if (name.length > 253) return { ok: false, reason: "the host name is longer than 253 characters" };
  const labels = name.split(".");
  for (const label of labels) {
    if (label === "") return { ok: false, reason: `the host name has an empty label: ${host}` };
    if (!LABEL.test(label))
      return {
        ok: false,
        reason: `the host name label "${label}" is not letters, digits, "-" or "_" (at most 63, no "-" at either end)`,
      };
  }
  if (labels.length === 1)
    return { ok: false, reason: `single-label host names resolve inside the local network: ${host}` };
  for (const suffix of DENIED_NAME_SUFFIXES) {
    if (name === suffix || name.endsWith(`.${suffix}`))
      return {
        ok: false,
        reason: `${host} is a special-use name (${suffix === name ? suffix : `under .${suffix}`}) that resolves to this machine or the local network`,
      };
  }
  return { ok: true, kind: "name" };
}

/** The host as a resolver and TLS want it: no brackets, lower case, no trailing dot. */
export function normalizeHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h.endsWith(".")) h = h.slice(0, -1);
  return h;
}
