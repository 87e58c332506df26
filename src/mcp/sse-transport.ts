import { GjcError } from "../core/errors.ts";
import { discardBody } from "./body.ts";
import { mcpError } from "./errors.ts";
import { pumpSse, statusError } from "./http-transport.ts";
import type { HttpChannelOptions } from "./http-transport.ts";
import { describeUrl, pinnedFetch } from "./pinned-fetch.ts";
import type { Channel, ChannelSink } from "./rpc-client.ts";

/**
 * The older HTTP+SSE transport (MCP 2024-11-05): a GET opens an event stream whose first
 * `endpoint` event names where to POST messages; answers come back on the stream. The
 * endpoint must be on the same origin as the stream (it is judged like a redirect).
 */
export function startSseChannel(opts: HttpChannelOptions, sink: ChannelSink): Channel {
  const abort = new AbortController();
  const fetchOpts = {
    label: opts.label,
    addressCheck: opts.addressCheck,
    judgeUrl: opts.judgeUrl,
    ca: opts.ca,
    signal: abort.signal,
    userAgent: opts.userAgent,
  };
  let closed = false;
  let resolveEndpoint!: (u: URL) => void;
  let rejectEndpoint!: (e: GjcError) => void;
  const endpoint = new Promise<URL>((res, rej) => {
    resolveEndpoint = res;
    rejectEndpoint = rej;
  });
  endpoint.catch(() => {});
  const fail = (e: unknown) => {
    if (closed) return;
    const err =
      e instanceof GjcError
        ? e
        : mcpError(
            "mcp_unreachable",
            `${opts.label}: ${(e as Error).message}`,
            "check the server is up, then try again",
          );
    rejectEndpoint(err);
    sink.fail(err);
  };

  (async () => {
    const { response, url: streamUrl } = await pinnedFetch(
      opts.url,
      { method: "GET", headers: { accept: "text/event-stream", "cache-control": "no-cache" } },
      fetchOpts,
    );
    if (response.status !== 200) {
      discardBody(response);
      throw statusError(opts.label, opts.url, response.status);
    }
    const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "text/event-stream" || !response.body) {
      discardBody(response);
      throw mcpError(
        "mcp_protocol",
        `${opts.label}: ${describeUrl(opts.url)} is not an SSE stream (content type "${type || "none"}")`,
        'use transport "http" for streamable HTTP servers, "sse" only for the older HTTP+SSE transport',
      );
    }
    let haveEndpoint = false;
    await pumpSse(response.body, opts.label, sink, (event, data) => {
      if (event !== "endpoint") return false;
      let target: URL;
      try {
        target = new URL(data.trim(), streamUrl);
      } catch {
        throw mcpError(
          "mcp_protocol",
          `${opts.label} announced an endpoint that does not parse`,
          "the server does not follow MCP's SSE transport",
        );
      }
      if (target.origin !== opts.url.origin)
        throw mcpError(
          "security_policy",
          `${opts.label} announced a message endpoint on another origin (${describeUrl(target)})`,
          "bundle MCP servers may only post to their own https origin; fix the server",
        );
      haveEndpoint = true;
      resolveEndpoint(target);
      return true;
    });
    throw mcpError(
      "mcp_server_exited",
      `${opts.label} closed its SSE stream${haveEndpoint ? "" : " before announcing an endpoint"}`,
      "check the server is up and speaks the HTTP+SSE transport",
    );
  })().catch(fail);

  return {
    async send(message) {
      if (closed) throw mcpError("mcp_closed", `${opts.label} is closed`, "connect again");
      const target = await endpoint;
      const { response } = await pinnedFetch(
        target,
        { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(message) },
        fetchOpts,
      );
      discardBody(response);
      if (response.status < 200 || response.status > 299) throw statusError(opts.label, target, response.status);
    },
    async close() {
      if (closed) return;
      closed = true;
      abort.abort();
    },
  };
}
