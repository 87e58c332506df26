/**
 * The one JSON-RPC 2.0 peer of gjc, at the level of messages: the C2 Plugin Protocol peer
 * (src/c2host/protocol-peer.ts, newline-delimited over a runtime's stdio) and the MCP client
 * (src/mcp/rpc-client.ts, over stdio, HTTP or SSE) are this peer plus their framing.
 *
 * Our request ids are integers counting from 1; answers are matched only by them. The peer is
 * closed once: every waiter then fails with the close reason, running callbacks are aborted and
 * nothing further is sent.
 */

export type PeerFailureKind = "closed" | "too_large" | "capacity" | "remote" | "timeout" | "cancelled";

/** What can go wrong on one connection; callers map these onto their GjcError codes. */
export class PeerError extends Error {
  constructor(
    readonly kind: PeerFailureKind,
    message: string,
    readonly remote?: { code: number; data?: unknown },
    /** The request this is about, for a timeout or a failed send. */
    readonly request?: { method: string; timeoutMs?: number },
  ) {
    super(message);
    this.name = "PeerError";
  }
}

export const isPeerError = (e: unknown): e is PeerError => e instanceof PeerError;

/** Thrown by a request handler to answer with a specific JSON-RPC error code (and `data`). */
export class RpcMethodError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** JSON-RPC 2.0: the message is not a valid request object. */
export const INVALID_REQUEST_CODE = -32600;

/** JSON-RPC error code of an answer whose handler threw something else (the C2 host uses it throughout). */
export const SERVER_ERROR_CODE = -32000;

export interface JsonRpcLimits {
  /** Our requests waiting for an answer; the excess is refused before it is sent. */
  maxPendingRequests: number;
  /** Requests of the other side being served at once; one more closes the peer. */
  maxServedRequests: number;
}

export interface JsonRpcHandlers {
  /** Serves one request of the other side; a throw becomes an error answer with its message. */
  onRequest(method: string, params: unknown, signal: AbortSignal): unknown;
  onNotification(method: string, params: unknown): void;
  /** A message that breaks the protocol (said as a noun phrase: "a response with …"). */
  onProtocolProblem(what: string): void;
}

export interface JsonRpcOptions {
  limits: JsonRpcLimits;
  /** A response must hold `result` or `error` (MCP); otherwise a bare response answers null (C2). */
  strictResponses?: boolean;
  /** Who the other side is, in messages ("the plugin"). */
  peerName?: string;
  /**
   * Serve to the letter of JSON-RPC 2.0 (the management plane): `jsonrpc` must be "2.0", a
   * message with an `id` member is a request even when the id is null, an invalid request is
   * answered with -32600 (with its id when usable), and batches are served (receiveBatch).
   */
  strict?: boolean;
}

export interface RequestOptions {
  /** Rejects with kind `timeout` and closes the peer: the other side's state is unknown afterwards. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: PeerError): void;
  timer?: ReturnType<typeof setTimeout>;
  signal?: AbortSignal;
  onAbort?: () => void;
}

function release(p: Pending): void {
  clearTimeout(p.timer);
  if (p.onAbort !== undefined) p.signal?.removeEventListener("abort", p.onAbort);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export abstract class JsonRpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly served = new Set<AbortController>();
  /** Requests being served until their answer is sent (answered() waits for them). */
  private readonly answering = new Set<Promise<void>>();
  private closeError: PeerError | undefined;
  private readonly closeListeners: ((e: PeerError) => void)[] = [];

  constructor(
    protected readonly handlers: JsonRpcHandlers,
    private readonly options: JsonRpcOptions,
  ) {}

  /**
   * Sends one message. Throwing a PeerError of kind `too_large` refuses it before anything is
   * sent (the connection stays usable); any other failure closes the peer.
   */
  protected abstract send(message: Record<string, unknown>): void;

  get closed(): boolean {
    return this.closeError !== undefined;
  }

  get closeReason(): PeerError | undefined {
    return this.closeError;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  get callbackCount(): number {
    return this.served.size;
  }

  onClose(listener: (e: PeerError) => void): void {
    if (this.closeError) listener(this.closeError);
    else this.closeListeners.push(listener);
  }

  request(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.closeError) return Promise.reject(this.closeError);
    const { maxPendingRequests } = this.options.limits;
    if (this.pending.size >= maxPendingRequests) {
      return Promise.reject(
        new PeerError(
          "capacity",
          `protocol capacity exceeded: pending requests (at most ${maxPendingRequests} may wait for an answer)`,
        ),
      );
    }
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(new PeerError("cancelled", `request \`${method}\` was cancelled`));
    const id = this.nextId++;
    const message = params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
    const { promise, resolve, reject } = Promise.withResolvers<unknown>();
    const pending: Pending = { method, resolve, reject, signal };
    if (!this.transmit(message, reject)) return promise;
    this.pending.set(id, pending);
    if (timeoutMs !== undefined) {
      pending.timer = setTimeout(
        () => {
          this.close(
            new PeerError("timeout", `request \`${method}\` timed out after ${timeoutMs} ms`, undefined, {
              method,
              timeoutMs,
            }),
          );
        },
        Math.max(0, timeoutMs),
      );
    }
    if (signal !== undefined) {
      pending.onAbort = () => {
        if (this.pending.get(id) !== pending) return;
        this.pending.delete(id);
        release(pending);
        reject(new PeerError("cancelled", `request \`${method}\` was cancelled`));
      };
      signal.addEventListener("abort", pending.onAbort, { once: true });
    }
    return promise;
  }

  /** Sends a notification; false when the peer is closed or the message was refused as too large. */
  notify(method: string, params?: unknown): boolean {
    if (this.closed) return false;
    return this.transmit(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }, (e) =>
      this.handlers.onProtocolProblem(e.message),
    );
  }

  close(error: PeerError): void {
    if (this.closeError) return;
    this.closeError = error;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      release(p);
      p.reject(
        error.kind === "remote"
          ? error
          : new PeerError(error.kind, `${error.message} (while waiting for \`${p.method}\`)`, undefined, error.request),
      );
    }
    for (const c of this.served) c.abort(error);
    this.served.clear();
    for (const l of this.closeListeners.splice(0)) l(error);
  }

  /** One message from the other side, already parsed. */
  receive(message: unknown): void {
    if (this.closed) return;
    if (this.options.strict) {
      const refusal = invalidRequest(message);
      if (refusal) {
        this.transmit(refusal, () => {});
        return;
      }
    }
    if (!isObject(message)) return this.handlers.onProtocolProblem("a message that is not a JSON-RPC object");
    if (typeof message.method === "string") {
      if (this.isRequest(message)) this.serve(message.id, message.method, message.params);
      else this.handlers.onNotification(message.method, message.params);
      return;
    }
    if ("id" in message) return this.settle(message);
    this.handlers.onProtocolProblem("a message that is neither a request, a notification nor a response");
  }

  /**
   * A JSON-RPC 2.0 batch (strict peers only): every member is served, and the answers go back
   * in one array, or not at all when the batch held only notifications. An empty batch is one
   * invalid request.
   */
  receiveBatch(messages: unknown[]): void {
    this.track(this.serveBatch(messages));
  }

  private async serveBatch(messages: unknown[]): Promise<void> {
    if (this.closed) return;
    if (messages.length === 0) {
      this.transmit(errorAnswer(null, INVALID_REQUEST_CODE, "invalid request: an empty batch"), () => {});
      return;
    }
    const answers = await Promise.all(
      messages.map(async (m): Promise<Record<string, unknown> | undefined> => {
        const refusal = invalidRequest(m);
        if (refusal) return refusal;
        const msg = m as Record<string, unknown> & { method: unknown };
        // A response inside a batch answers nothing of ours (this side sends no batches).
        if (typeof msg.method !== "string") return undefined;
        if (!this.isRequest(msg)) {
          this.handlers.onNotification(msg.method, msg.params);
          return undefined;
        }
        return this.respond(msg.id, msg.method, msg.params);
      }),
    );
    const out = answers.filter((a): a is Record<string, unknown> => a !== undefined);
    if (out.length > 0 && !this.closed) this.transmit(out as unknown as Record<string, unknown>, () => {});
  }

  private isRequest(m: Record<string, unknown>): boolean {
    return this.options.strict ? "id" in m : m.id !== undefined && m.id !== null;
  }

  /** Sends, or hands a refusal to `refused`; returns whether it went out. */
  private transmit(message: Record<string, unknown>, refused: (e: PeerError) => void): boolean {
    try {
      this.send(message);
      return true;
    } catch (e) {
      if (e instanceof PeerError && e.kind === "too_large") {
        refused(e);
        return false;
      }
      const error = new PeerError("closed", `could not send: ${e instanceof Error ? e.message : String(e)}`);
      this.close(error);
      refused(error);
      return false;
    }
  }

  private settle(m: Record<string, unknown>): void {
    const id = m.id;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) {
      return this.handlers.onProtocolProblem(`a response with a non-integer id: ${JSON.stringify(id) ?? "undefined"}`);
    }
    const p = this.pending.get(id);
    if (!p)
      return this.handlers.onProtocolProblem(
        `a response to request id ${id}, which was never sent or is no longer awaited`,
      );
    const hasError = m.error !== undefined && m.error !== null;
    if (this.options.strictResponses && !("result" in m) && !hasError) {
      return this.handlers.onProtocolProblem(`a response to ${p.method} with neither result nor error`);
    }
    this.pending.delete(id);
    release(p);
    if (hasError) {
      const err = isObject(m.error) ? m.error : {};
      const message =
        typeof err.message === "string" && err.message.trim() !== ""
          ? err.message
          : `${this.options.peerName ?? "the other side"} refused without a reason`;
      p.reject(
        new PeerError(
          "remote",
          message,
          { code: typeof err.code === "number" ? err.code : SERVER_ERROR_CODE, data: err.data },
          { method: p.method },
        ),
      );
      return;
    }
    p.resolve(m.result === undefined ? null : m.result);
  }

  private serve(id: unknown, method: string, params: unknown): void {
    this.track(
      this.respond(id, method, params).then((answer) => {
        if (answer === undefined || this.closed) return;
        this.transmit(answer, () => {
          this.transmit(
            {
              jsonrpc: "2.0",
              id: answer.id,
              error: { code: SERVER_ERROR_CODE, message: "the answer exceeds the 1 MiB protocol frame limit" },
            },
            () => {},
          );
        });
      }),
    );
  }

  private track(p: Promise<void>): void {
    this.answering.add(p);
    void p.finally(() => this.answering.delete(p));
  }

  /** Resolves once every request received so far has been answered (or dropped by a close). */
  async answered(): Promise<void> {
    while (this.answering.size > 0) await Promise.allSettled([...this.answering]);
  }

  /** Runs one request of the other side; the answer to send, or undefined when the peer closed meanwhile. */
  private async respond(id: unknown, method: string, params: unknown): Promise<Record<string, unknown> | undefined> {
    const { maxServedRequests } = this.options.limits;
    if (this.served.size >= maxServedRequests) {
      // Serving more at once would let the other side make us spawn unbounded work.
      this.close(
        new PeerError(
          "capacity",
          `protocol capacity exceeded: host callbacks (at most ${maxServedRequests} may run at once)`,
        ),
      );
      return undefined;
    }
    const controller = new AbortController();
    this.served.add(controller);
    let answer: Record<string, unknown>;
    try {
      const result = await Promise.try(() => this.handlers.onRequest(method, params, controller.signal));
      answer = { jsonrpc: "2.0", id, result: result === undefined ? null : result };
    } catch (e) {
      const code = e instanceof RpcMethodError ? e.code : SERVER_ERROR_CODE;
      const data = e instanceof RpcMethodError ? e.data : undefined;
      answer = errorAnswer(id, code, e instanceof Error ? e.message : String(e), data);
    }
    if (!this.served.delete(controller) || this.closed) return undefined;
    return answer;
  }
}

function errorAnswer(id: unknown, code: number, message: string, data?: unknown): Record<string, unknown> {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

const usableId = (id: unknown) =>
  id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));

/**
 * Why a message is not a valid JSON-RPC 2.0 request or notification, as the -32600 answer to
 * send (with its id when that id is usable, else null); undefined for a valid one and for a
 * response, which is not a request at all.
 */
function invalidRequest(m: unknown): Record<string, unknown> | undefined {
  if (!isObject(m))
    return errorAnswer(null, INVALID_REQUEST_CODE, "invalid request: expected a JSON-RPC 2.0 request object");
  if (!("method" in m) && ("result" in m || "error" in m)) return undefined;
  const hasId = "id" in m;
  const id = hasId && usableId(m.id) ? m.id : null;
  if (m.jsonrpc !== "2.0")
    return errorAnswer(id, INVALID_REQUEST_CODE, 'invalid request: `jsonrpc` must be exactly "2.0"');
  if (typeof m.method !== "string")
    return errorAnswer(id, INVALID_REQUEST_CODE, "invalid request: `method` must be a string");
  if (hasId && !usableId(m.id))
    return errorAnswer(null, INVALID_REQUEST_CODE, "invalid request: `id` must be a string, a number or null");
  return undefined;
}
