import { GjcError } from "../core/errors.ts";
import { discardBody, readBoundedText } from "./body.ts";
import { mcpError } from "./errors.ts";
import { MAX_FRAME_BYTES } from "./limits.ts";
import { type AddressCheck, describeUrl, pinnedFetch, type PinnedFetchOptions } from "./pinned-fetch.ts";
import type { Channel, ChannelSink } from "./rpc-client.ts";
import { readSseEvents } from "./sse-parser.ts";

export interface HttpChannelOptions {
  url: URL;
  label: string;
  addressCheck?: AddressCheck;
  /** Per-hop URL rules other than DESIGN item 11 (see PinnedFetchOptions.judgeUrl). */
  judgeUrl?: PinnedFetchOptions["judgeUrl"];
  ca?: string | string[];
  userAgent: string;
}

const VISIBLE_ASCII = /^[\x21-\x7e]{1,512}$/;

/** Turns a non-success HTTP status into our error vocabulary. */
export function statusError(label: string, url: URL, status: number): GjcError {
  if (status === 401 || status === 403)
    return mcpError(
      "mcp_http_status",
      `${label}: ${describeUrl(url)} answered ${status} (it wants authorization)`,
      "bundle MCP servers cannot carry credentials; use a server that needs none, or configure it in your own mcp.json",
      { status },
    );
  return mcpError(
    "mcp_http_status",
    `${label}: ${describeUrl(url)} answered HTTP ${status}`,
    "check the url in the bundle manifest and that the server speaks MCP over this transport",
    { status },
  );
}

/** Delivers every JSON-RPC message of an SSE body to the sink. */
export async function pumpSse(
  body: ReadableStream<Uint8Array>,
  label: string,
  sink: ChannelSink,
  onEvent?: (event: string, data: string) => boolean,
): Promise<void> {
  for await (const ev of readSseEvents(body, MAX_FRAME_BYTES, label)) {
    if (onEvent?.(ev.event, ev.data)) continue;
    if (ev.event !== "message") continue;
    let message: unknown;
    try {
      message = JSON.parse(ev.data);
    } catch {
      throw mcpError(
        "mcp_protocol",
        `${label} sent an event whose data is not JSON`,
        "the server does not follow MCP's SSE framing; fix it or report it to its author",
      );
    }
    sink.message(message);
  }
}

/**
 * The streamable HTTP transport (MCP 2025-03-26 and later): every message is a POST to one
 * endpoint; the answer comes back as a JSON body or as an SSE stream on that POST. The
 * session id the server hands out is sent back on every later request.
 */
export function startStreamableHttpChannel(opts: HttpChannelOptions, sink: ChannelSink): Channel {
  const abort = new AbortController();
  let sessionId: string | undefined;
  let protocolVersion: string | undefined;
  let closed = false;

  const headers = (): Record<string, string> => {
    const h: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (sessionId) h["mcp-session-id"] = sessionId;
    if (protocolVersion) h["mcp-protocol-version"] = protocolVersion;
    return h;
  };
  const fetchOpts = {
    label: opts.label,
    addressCheck: opts.addressCheck,
    judgeUrl: opts.judgeUrl,
    ca: opts.ca,
    signal: abort.signal,
    userAgent: opts.userAgent,
  };
  const failFrom = (e: unknown) => {
    if (closed) return;
    sink.fail(
      e instanceof GjcError
        ? e
        : mcpError(
            "mcp_unreachable",
            `${opts.label}: ${(e as Error).message}`,
            "check the server is up, then try again",
          ),
    );
  };

  return {
    setProtocolVersion(v) {
      protocolVersion = v;
    },
    async send(message) {
      if (closed) throw mcpError("mcp_closed", `${opts.label} is closed`, "connect again");
      const { response } = await pinnedFetch(
        opts.url,
        { method: "POST", headers: headers(), body: JSON.stringify(message) },
        fetchOpts,
      );
      const sid = response.headers.get("mcp-session-id");
      if (sid !== null) {
        if (!VISIBLE_ASCII.test(sid))
          throw mcpError(
            "mcp_protocol",
            `${opts.label} sent an invalid Mcp-Session-Id`,
            "the server does not follow MCP; fix it or report it to its author",
          );
        sessionId = sid;
      }
      if (response.status === 202 || response.status === 204) return discardBody(response);
      if (response.status === 404 && sessionId) {
        discardBody(response);
        throw mcpError("mcp_http_status", `${opts.label}: the server forgot our session (HTTP 404)`, "connect again");
      }
      if (response.status < 200 || response.status > 299) {
        discardBody(response);
        throw statusError(opts.label, opts.url, response.status);
      }
      const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
      if (type === "application/json") {
        const text = await readBoundedText(response, MAX_FRAME_BYTES, opts.label);
        if (text.trim() === "") return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw mcpError(
            "mcp_protocol",
            `${opts.label} answered with a body that is not JSON`,
            "the server does not follow MCP; fix it or report it to its author",
          );
        }
        sink.message(parsed);
        return;
      }
      if (type === "text/event-stream" && response.body) {
        // The answer arrives on this stream later; read it without holding up the sender.
        pumpSse(response.body, opts.label, sink).catch(failFrom);
        return;
      }
      discardBody(response);
      if ("id" in message && "method" in message)
        throw mcpError(
          "mcp_protocol",
          `${opts.label} answered a request with content type "${type || "none"}"`,
          "an MCP endpoint answers with application/json or text/event-stream",
        );
    },
    async close() {
      if (closed) return;
      closed = true;
      abort.abort();
      if (sessionId) {
        // Tell the server the session is over; best effort, bounded, never fatal.
        const bye = new AbortController();
        const timer = setTimeout(() => bye.abort(), 1000);
        try {
          const { response } = await pinnedFetch(
            opts.url,
            { method: "DELETE", headers: headers() },
            { ...fetchOpts, signal: bye.signal },
          );
          discardBody(response);
        } catch {
          // The session ends anyway when the server times it out.
        } finally {
          clearTimeout(timer);
        }
      }
    },
  };
}
