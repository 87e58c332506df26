import type { GjcError } from "../core/errors.ts";
import { mcpError, sanitizeServerText } from "./errors.ts";
import { MAX_UNSOLICITED_MESSAGES } from "./limits.ts";

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

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: GjcError): void;
  timer: ReturnType<typeof setTimeout>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A JSON-RPC 2.0 client over one channel. It answers the server's `ping`, refuses every other
 * server request (we offer no client capabilities), and fails the whole session on the first
 * protocol violation: a probe must end with a clear error rather than limp on.
 */
export class RpcClient implements ChannelSink {
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private unsolicited = 0;
  private failure: GjcError | undefined;
  private failureListeners: ((e: GjcError) => void)[] = [];
  channel!: Channel;

  constructor(private readonly label: string) {}

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
    const id = this.nextId++;
    const result = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(
          mcpError("mcp_timeout", `${this.label} did not answer ${method} within ${Math.max(0, Math.round(timeoutMs))} ms`, "check that the server speaks MCP on this transport and starts quickly, or allow more time with a longer timeout", { method, timeoutMs }),
        );
      }, Math.max(0, timeoutMs));
      this.pending.set(id, { method, resolve, reject, timer });
    });
    const message: Record<string, unknown> = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    this.channel.send(message).catch((e: GjcError) => this.fail(e));
    return result;
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.failure) throw this.failure;
    const message: Record<string, unknown> = { jsonrpc: "2.0", method };
    if (params !== undefined) message.params = params;
    await this.channel.send(message);
  }

  /** Ends the session with `error`: every waiting request gets it, later calls throw it. */
  fail(error: GjcError): void {
    if (this.failure) return;
    this.failure = error;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(error);
    }
    this.pending.clear();
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
    if (!isObject(message) || message.jsonrpc !== "2.0") return this.protocolError("a message that is not JSON-RPC 2.0");
    const hasId = "id" in message && message.id !== null;
    if (typeof message.method === "string") {
      if (++this.unsolicited > MAX_UNSOLICITED_MESSAGES)
        return this.fail(mcpError("mcp_protocol", `${this.label} sent more than ${MAX_UNSOLICITED_MESSAGES} requests or notifications without answering ours`, "the server floods its output; fix it or report it to its author"));
      if (hasId) this.answerServerRequest(message.id, message.method);
      return;
    }
    if (!hasId || (typeof message.id !== "number" && typeof message.id !== "string"))
      return this.protocolError("a response without a valid id");
    const p = this.pending.get(Number(message.id));
    if (!p) return this.protocolError(`a response to a request it was never sent (id ${sanitizeServerText(message.id, 40)})`);
    if (!("result" in message) && !("error" in message)) return this.protocolError(`a response to ${p.method} with neither result nor error`);
    this.pending.delete(Number(message.id));
    clearTimeout(p.timer);
    this.unsolicited = 0;
    if ("error" in message) {
      const err = isObject(message.error) ? message.error : {};
      const text = typeof err.message === "string" ? sanitizeServerText(err.message) : "no message";
      const code = typeof err.code === "number" ? err.code : undefined;
      p.reject(mcpError("mcp_error", `${this.label} answered ${p.method} with an error${code !== undefined ? ` ${code}` : ""}: ${text}`, "the server refused the request; see its message and its stderr", { method: p.method, code }));
      return;
    }
    p.resolve(message.result);
  }

  private answerServerRequest(id: unknown, method: string): void {
    const reply: Record<string, unknown> =
      method === "ping"
        ? { jsonrpc: "2.0", id, result: {} }
        : { jsonrpc: "2.0", id, error: { code: -32601, message: `gjc does not offer ${method}` } };
    this.channel.send(reply).catch((e: GjcError) => this.fail(e));
  }

  private protocolError(what: string): void {
    this.fail(mcpError("mcp_protocol", `${this.label} sent ${what}`, "the server does not follow MCP's JSON-RPC framing; fix it or report it to its author"));
  }
}
