import { resolveAndCheck } from "../policy/dns.ts";
import { classifyMcpUrl } from "../policy/url.ts";
import { sourceError } from "./errors.ts";
import { redactUrl } from "./redact.ts";
import type { NetworkOverrides } from "./types.ts";

/** What the refused URL is, for the messages: "archive" downloads and "git" remotes. */
export type Destination = "archive" | "git";

const NOUN: Record<Destination, string> = { archive: "The archive URL", git: "The git URL" };

/**
 * The one place the sources layer judges a network destination (DESIGN item 11 (a)-(d)): the
 * URL stages, then every DNS answer, both from src/policy. Returns the checked addresses to
 * connect to. `url` carries no userinfo (the URL stages refuse it). The `net` test seam
 * replaces the whole check (`resolveAddresses`) or only the DNS answers (`resolver`); the CLI
 * never sets it, so there is no production switch that lets a private address through.
 */
export async function checkedAddresses(
  url: URL,
  net: NetworkOverrides | undefined,
  what: Destination,
): Promise<string[]> {
  if (net?.resolveAddresses) return net.resolveAddresses(url);
  const dns = await resolveAndCheck(judgeUrl(url.href, what), net?.resolver);
  if (!dns.ok) {
    // A resolver failure is an unreachable host; an answer in a denied range is a policy refusal.
    if (dns.unresolved) {
      throw sourceError(
        "source_unreachable",
        `${redactUrl(url.href)} cannot be reached: ${dns.reason}.`,
        "Check the host name and your network.",
      );
    }
    throw sourceError(
      "security_policy",
      `${NOUN[what]} ${redactUrl(url.href)} is refused: ${dns.reason}.`,
      `${what === "git" ? "Git repositories are fetched over https" : "Archives are downloaded"} only from hosts that resolve to public addresses.`,
    );
  }
  return dns.addresses;
}

/** Stages (a)-(c) alone, synchronously (the normalized host is returned): what can be refused before any process or socket exists. */
export function judgeUrl(href: string, what: Destination): string {
  const verdict = classifyMcpUrl(href);
  if (!verdict.ok) {
    throw sourceError(
      "security_policy",
      `${NOUN[what]} ${redactUrl(href)} is refused: ${verdict.reason}.`,
      `${what === "git" ? "Git repositories are fetched over https" : "Archives are downloaded"} only from public https:// hosts.`,
      { stage: verdict.stage },
    );
  }
  return verdict.host;
}
