import { type DnsVerdict, resolveAndCheck, systemResolver } from "../policy/dns.ts";
import { classifyMcpUrl, type UrlVerdict } from "../policy/url.ts";
import { mcpError } from "./errors.ts";
import { MAX_REDIRECTS } from "./limits.ts";

/**
 * Stage (d) of DESIGN item 11 for one host: the addresses we may connect to, or why not.
 * Injectable so tests can point a name at a local server; the CLI always uses the default.
 */
export type AddressCheck = (host: string) => Promise<DnsVerdict>;

export const defaultAddressCheck: AddressCheck = (host) => resolveAndCheck(host, systemResolver);

export interface PinnedFetchOptions {
  label: string;
  addressCheck?: AddressCheck;
  /**
   * Stages (a)-(c) for each hop: DESIGN item 11 (classifyMcpUrl) unless a family's own rules
   * apply (C2 mcp.json: Agent Plugins, https or loopback http; src/c2session/mcp-servers.ts).
   */
  judgeUrl?: (raw: string) => UrlVerdict;
  /** Extra trust roots (PEM), for tests with a self-signed certificate. */
  ca?: string | string[];
  signal?: AbortSignal;
  /** Sent on every request in place of Bun's own, which would tell the server it is a probe. */
  userAgent: string;
}

export interface PinnedRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Bun's codes for failures before a request went out, when another address may work. */
const CONNECT_FAILURES = new Set([
  "ConnectionRefused",
  "ECONNREFUSED",
  "FailedToOpenSocket",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ConnectionClosed",
]);

/** Where a request goes, without its path or query (they may carry tokens). */
export const describeUrl = (url: URL) => url.origin;

function refused(opts: PinnedFetchOptions, url: URL, why: string) {
  return mcpError(
    "security_policy",
    `${opts.label}: ${describeUrl(url)} is refused: ${why}`,
    "bundle MCP servers must be public https endpoints; change the url in the bundle manifest",
  );
}

/**
 * One checked hop: judge the URL (stages a-c), resolve and judge every answer (stage d), then
 * connect to a checked address while the name is kept for the Host header, SNI and the
 * certificate check. `proxy: false` so HTTP(S)_PROXY cannot route it elsewhere; redirects are
 * returned to the caller, never followed by fetch.
 */
async function fetchOnce(url: URL, req: PinnedRequest, opts: PinnedFetchOptions): Promise<Response> {
  const verdict = (opts.judgeUrl ?? classifyMcpUrl)(url.href);
  if (!verdict.ok) throw refused(opts, url, verdict.reason);
  const addresses = await (opts.addressCheck ?? defaultAddressCheck)(verdict.host);
  if (!addresses.ok) {
    if (addresses.unresolved)
      throw mcpError(
        "mcp_unreachable",
        `${opts.label}: cannot reach ${describeUrl(url)}: ${addresses.reason}`,
        "check the name and your network, then try again",
      );
    throw refused(opts, url, addresses.reason);
  }
  if (addresses.addresses.length === 0) throw refused(opts, url, "no address to connect to");
  const isName = !/^[0-9.]+$/.test(verdict.host) && !verdict.host.includes(":");

  let lastError: unknown;
  for (const address of addresses.addresses) {
    const target = new URL(url.href);
    target.hostname = address.includes(":") ? `[${address}]` : address;
    try {
      return await fetch(target.href, {
        method: req.method,
        headers: { ...req.headers, host: url.host, "user-agent": opts.userAgent },
        body: req.body,
        redirect: "manual",
        proxy: false,
        keepalive: false,
        signal: opts.signal,
        tls: {
          rejectUnauthorized: true,
          ...(isName ? { serverName: verdict.host } : {}),
          ...(opts.ca ? { ca: opts.ca } : {}),
        },
      } as RequestInit);
    } catch (e) {
      lastError = e;
      const code = (e as { code?: string }).code ?? "";
      if ((e as Error).name === "AbortError" || !CONNECT_FAILURES.has(code)) break;
    }
  }
  if ((lastError as Error)?.name === "AbortError") throw lastError;
  const code = (lastError as { code?: string })?.code;
  const tlsHint =
    code && /CERT|TLS|SSL/i.test(code) ? " (the server's certificate does not match the name or is not trusted)" : "";
  throw mcpError(
    "mcp_unreachable",
    `${opts.label}: cannot reach ${describeUrl(url)}: ${code ?? (lastError as Error)?.message ?? "unknown error"}${tlsHint}`,
    "check the server is up and its certificate is valid for that name, then try again",
    { code },
  );
}

/**
 * A fetch that enforces DESIGN item 11(d) at every hop: each redirect must stay on the same
 * https origin and is judged and resolved again before we connect.
 */
export async function pinnedFetch(
  start: URL,
  req: PinnedRequest,
  opts: PinnedFetchOptions,
): Promise<{ response: Response; url: URL }> {
  let url = start;
  let current = req;
  for (let hop = 0; ; hop++) {
    const response = await fetchOnce(url, current, opts);
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null) return { response, url };
    await response.body?.cancel().catch(() => {});
    if (hop >= MAX_REDIRECTS)
      throw mcpError(
        "mcp_http_status",
        `${opts.label}: more than ${MAX_REDIRECTS} redirects from ${describeUrl(start)}`,
        "the server redirects in a loop; fix the url in the bundle manifest",
      );
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw refused(opts, url, "it redirects to a URL that does not parse");
    }
    if (next.origin !== start.origin || next.protocol !== "https:")
      throw refused(
        opts,
        next,
        `it is a redirect away from ${describeUrl(start)} (only same-origin https redirects are followed)`,
      );
    // 303, and 301/302 after a POST, continue as a GET without a body (as browsers do).
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && current.method === "POST")
    ) {
      const headers = Object.fromEntries(Object.entries(current.headers).filter(([k]) => !/^content-/i.test(k)));
      current = { method: "GET", headers };
    }
    url = next;
  }
}
