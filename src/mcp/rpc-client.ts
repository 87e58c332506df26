import type { GjcError } from "../core/errors.ts";
import { mcpError, sanitizeServerText } from "./errors.ts";
import { JsonRpcPeer, PeerError, RpcMethodError, type JsonRpcHandlers } from "../core/jsonrpc-peer.ts";
import { MAX_PENDING_REQUESTS, MAX_SERVED_REQUESTS, MAX_UNSOLICITED_MESSAGES } from "./limits.ts";

/** Where a transport delivers what the server sent, or the one failure that ends it. */
export interface ChannelSink {
  message(message: unknown): void;
  fail(error: GjcError): void;
}

/** A transport's sending half. Incoming messages go to the sink it was created with. */
export interface Channel {
  send(message: Record<string, unknown>): Promise<void>;
  /** Called once the protocol version is agreed (HTTP sends it as a header from then on). */
  setProtocolVersion?(version: string): void;
  close(): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The shared peer with MCP's outlet: messages go to the channel, a failed send ends the session. */
class McpPeer extends JsonRpcPeer {
  constructor(
    handlers: JsonRpcHandlers,
    private readonly sendOut: (message: Record<string, unknown>) => void,
  ) {
    super(handlers, {
      limits: { maxPendingRequests: MAX_PENDING_REQUESTS, maxServedRequests: MAX_SERVED_REQUESTS },
      strictResponses: true,
      peerName: "the server",
    });
  }

  protected send(message: Record<string, unknown>): void {
    this.sendOut(message);
  }
}

/**
 * A JSON-RPC 2.0 client over one channel, on the shared peer (src/core/jsonrpc-peer.ts). It
 * answers the server's `ping`, refuses every other server request (we offer no client
 * capabilities), and fails the whole session on the first protocol violation: a probe must end
 * with a clear error rather than limp on.
 */
export class RpcClient implements ChannelSink {
  private readonly peer: McpPeer;
  private unsolicited = 0;
  private failure: GjcError | undefined;
  private failureListeners: ((e: GjcError) => void)[] = [];
  channel!: Channel;

  constructor(private readonly label: string) {
    this.peer = new McpPeer(
      {
        onRequest: (method) => {
          if (method === "ping") return {};
          throw new RpcMethodError(-32601, `gjc does not offer ${method}`);
        },
        onNotification: () => {},
        onProtocolProblem: (what) => this.protocolError(what),
      },
      (message) => void this.channel.send(message).catch((e: GjcError) => this.fail(e)),
    );
    this.peer.onClose((e) => this.fail(this.failureOf(e)));
  }

  attach(channel: Channel): void {
    this.channel = channel;
  }

  get failed(): GjcError | undefined {
    return this.failure;
  }

  onFailure(listener: (e: GjcError) => void): void {
    this.failureListeners.push(listener);
  }

  async request(method: string, params: Record<string, unknown> | undefined, timeoutMs: number): Promise<unknown> {
    if (this.failure) throw this.failure;
    try {
      return await this.peer.request(method, params, { timeoutMs: Math.max(0, timeoutMs) });
    } catch (e) {
      throw this.failure ?? (e instanceof PeerError ? this.failureOf(e, method) : e);
    }
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.failure) throw this.failure;
    await this.channel.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** Ends the session with `error`: every waiting request gets it, later calls throw it. */
  fail(error: GjcError): void {
    if (this.failure) return;
    this.failure = error;
    this.peer.close(new PeerError("closed", error.message));
    for (const l of this.failureListeners) l(error);
  }

  message(message: unknown): void {
    if (this.failure) return;
    if (Array.isArray(message)) {
      // JSON-RPC batches (allowed by MCP 2025-03-26) are handled element by element.
      if (message.length === 0) return this.protocolError("an empty JSON-RPC batch");
      for (const m of message) this.message(m);
      return;
    }
    if (!isObject(message) || message.jsonrpc !== "2.0")
      return this.protocolError("a message that is not JSON-RPC 2.0");
    if (typeof message.method === "string") {
      if (++this.unsolicited > MAX_UNSOLICITED_MESSAGES)
        return this.fail(
          mcpError(
            "mcp_protocol",
            `${this.label} sent more than ${MAX_UNSOLICITED_MESSAGES} requests or notifications without answering ours`,
            "the server floods its output; fix it or report it to its author",
          ),
        );
    } else {
      this.unsolicited = 0;
    }
    this.peer.receive(message);
  }

  /** What a peer failure means for this MCP session. */
  private failureOf(e: PeerError, method?: string): GjcError {
    if (e.kind === "timeout") {
      const what = e.request?.method ?? method ?? "a request";
      const timeoutMs = e.request?.timeoutMs ?? 0;
      return mcpError(
        "mcp_timeout",
        `${this.label} did not answer ${what} within ${Math.round(timeoutMs)} ms`,
        "check that the server speaks MCP on this transport and starts quickly, or allow more time with a longer timeout",
        { method: what, timeoutMs },
      );
    }
    if (e.kind === "remote") {
      const code = e.remote?.code;
      return mcpError(
        "mcp_error",
        `${this.label} answered ${method} with an error${code !== undefined ? ` ${code}` : ""}: ${sanitizeServerText(e.message)}`,
        "the server refused the request; see its message and its stderr",
        { method, code },
      );
    }
    return mcpError(
      "mcp_protocol",
      `${this.label}: ${e.message}`,
      "the server does not follow MCP's JSON-RPC framing; fix it or report it to its author",
    );
  }

  private protocolError(what: string): void {
    this.fail(
      mcpError(
        "mcp_protocol",
        `${this.label} sent ${what}`,
        "the server does not follow MCP's JSON-RPC framing; fix it or report it to its author",
      ),
    );
  }
}
