import { HOST_ERROR_CODE, MAX_FRAME_BYTES, MAX_HOST_CALLBACKS, MAX_PENDING_REQUESTS } from "./limits.ts";
import { FrameTooLargeError, LineSplitter } from "../core/line-splitter.ts";
import { PeerError } from "./peer-errors.ts";

export interface PeerLimits {
  maxFrameBytes: number;
  maxPendingRequests: number;
  maxHostCallbacks: number;
}

export const defaultPeerLimits: PeerLimits = {
  maxFrameBytes: MAX_FRAME_BYTES,
  maxPendingRequests: MAX_PENDING_REQUESTS,
  maxHostCallbacks: MAX_HOST_CALLBACKS,
};

export interface PeerHandlers {
  /** Serves one plugin→host request; a throw becomes a -32000 error response with its message. */
  onRequest(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  /** Plugin→host notifications (`log`, `event/emit`). */
  onNotification(method: string, params: unknown): void;
  /** Dropped lines and other recoverable oddities. */
  onWarning(message: string): void;
}

/** Where outbound frames go: the child's stdin in production, a buffer in tests. */
export interface PeerOutput {
  write(frame: string): void;
  flush?(): void;
}

export interface RequestOptions {
  /** Rejects with kind `timeout` and closes the peer: the process state is unknown afterwards. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: PeerError): void;
  /** Only requests with a timeout or a signal have something to undo when they settle. */
  timer: ReturnType<typeof setTimeout> | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

function release(p: Pending): void {
  if (p.timer !== undefined) clearTimeout(p.timer);
  if (p.onAbort !== undefined) p.signal?.removeEventListener("abort", p.onAbort);
}

/** Whether a frame plus its newline fits; the cheap length bound skips counting short frames. */
const fits = (frame: string, max: number): boolean => frame.length * 3 + 1 <= max || Buffer.byteLength(frame, "utf8") + 1 <= max;

/**
 * One newline-delimited JSON-RPC 2.0 connection to a runtime (C2 Plugin Protocol 1.x).
 * Host request ids are integers counting from 1; answers are matched only by such ids.
 * The peer is closed once: every waiter then fails with the close reason, running host
 * callbacks are aborted, and nothing further is written.
 */
export class ProtocolPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly callbacks = new Set<AbortController>();
  private readonly splitter: LineSplitter;
  private closeError: PeerError | undefined;
  private readonly closeListeners: ((e: PeerError) => void)[] = [];
  private flushScheduled = false;
  readonly limits: PeerLimits;

  constructor(
    private readonly output: PeerOutput,
    private readonly handlers: PeerHandlers,
    limits: Partial<PeerLimits> = {},
  ) {
    this.limits = { ...defaultPeerLimits, ...limits };
    this.splitter = new LineSplitter(this.limits.maxFrameBytes);
  }

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
    return this.callbacks.size;
  }

  onClose(listener: (e: PeerError) => void): void {
    if (this.closeError) listener(this.closeError);
    else this.closeListeners.push(listener);
  }

  /** Bytes from the runtime's stdout. */
  feed(chunk: Uint8Array): void {
    if (this.closed) return;
    let lines: string[];
    try {
      lines = this.splitter.push(chunk);
    } catch (e) {
      if (e instanceof FrameTooLargeError) {
        this.close(new PeerError("too_large", e.message));
        return;
      }
      throw e;
    }
    for (const line of lines) {
      if (this.closed) return;
      this.receiveLine(line);
    }
  }

  /** The runtime's stdout ended. */
  end(reason = "the runtime closed its output"): void {
    const rest = this.splitter.flush();
    if (rest !== undefined && rest.trim() !== "") this.receiveLine(rest);
    this.close(new PeerError("closed", reason));
  }

  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    if (this.closeError) return Promise.reject(this.closeError);
    if (this.pending.size >= this.limits.maxPendingRequests) {
      return Promise.reject(
        new PeerError("capacity", `plugin protocol capacity exceeded: pending requests (at most ${this.limits.maxPendingRequests} may wait for an answer)`),
      );
    }
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(new PeerError("cancelled", `plugin request \`${method}\` was cancelled`));
    const id = this.nextId++;
    const frame = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    if (!fits(frame, this.limits.maxFrameBytes)) {
      // Refused before anything is written, so the connection stays usable.
      return Promise.reject(new PeerError("too_large", `the \`${method}\` request exceeds the 1 MiB protocol frame limit and was not sent`));
    }
    // One pending record per request and no closures unless there is a timeout or a signal:
    // this is the per-call cost of every invocation.
    let resolve!: (value: unknown) => void;
    let reject!: (error: PeerError) => void;
    const promise = new Promise<unknown>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const pending: Pending = { method, resolve, reject, timer: undefined, signal, onAbort: undefined };
    this.pending.set(id, pending);
    const timeoutMs = options?.timeoutMs;
    if (timeoutMs !== undefined) {
      pending.timer = setTimeout(() => {
        // A runtime that did not answer in time is in an unknown state: close the connection.
        this.close(new PeerError("timeout", `plugin request \`${method}\` timed out after ${timeoutMs} ms`));
      }, timeoutMs);
    }
    if (signal !== undefined) {
      pending.onAbort = () => {
        if (this.pending.get(id) !== pending) return;
        this.pending.delete(id);
        release(pending);
        reject(new PeerError("cancelled", `plugin request \`${method}\` was cancelled`));
      };
      signal.addEventListener("abort", pending.onAbort, { once: true });
    }
    this.writeFrame(frame);
    return promise;
  }

  notify(method: string, params: unknown): boolean {
    if (this.closed) return false;
    const frame = JSON.stringify({ jsonrpc: "2.0", method, params });
    if (!fits(frame, this.limits.maxFrameBytes)) {
      this.handlers.onWarning(`dropped the \`${method}\` notification: it exceeds the 1 MiB protocol frame limit`);
      return false;
    }
    this.writeFrame(frame);
    return true;
  }

  close(error: PeerError): void {
    if (this.closeError) return;
    this.closeError = error;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      release(p);
      p.reject(error.kind === "remote" ? error : new PeerError(error.kind, `${error.message} (while waiting for \`${p.method}\`)`));
    }
    for (const c of this.callbacks) c.abort(error);
    this.callbacks.clear();
    for (const l of this.closeListeners.splice(0)) l(error);
  }

  private writeFrame(frame: string): void {
    try {
      this.output.write(`${frame}\n`);
    } catch (e) {
      this.close(new PeerError("closed", `could not write to the runtime: ${e instanceof Error ? e.message : String(e)}`));
      return;
    }
    if (this.output.flush === undefined || this.flushScheduled) return;
    // Frames written in one turn of the event loop go out in one flush when the turn's
    // microtasks run: still before the loop waits for I/O (so no latency is added to a lone
    // call), and pipelined calls share one write.
    this.flushScheduled = true;
    queueMicrotask(this.flushQueued);
  }

  private readonly flushQueued = (): void => {
    this.flushScheduled = false;
    if (this.closed) return;
    try {
      this.output.flush?.();
    } catch (e) {
      this.close(new PeerError("closed", `could not write to the runtime: ${e instanceof Error ? e.message : String(e)}`));
    }
  };

  private receiveLine(line: string): void {
    if (line.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.handlers.onWarning(`dropped a stdout line that is not JSON: ${preview(line)}`);
      return;
    }
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      this.handlers.onWarning(`dropped a stdout line that is not a JSON-RPC object: ${preview(line)}`);
      return;
    }
    const m = message as Record<string, unknown>;
    if (typeof m.method === "string") {
      if ("id" in m && m.id !== undefined) this.serveRequest(m.id, m.method, m.params);
      else this.handlers.onNotification(m.method, m.params);
      return;
    }
    if ("id" in m) {
      this.settle(m);
      return;
    }
    this.handlers.onWarning(`dropped a message that is neither a request, a notification nor a response: ${preview(line)}`);
  }

  private settle(m: Record<string, unknown>): void {
    const id = m.id;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) {
      this.handlers.onWarning(`dropped a response with a non-integer id: ${preview(JSON.stringify(id) ?? "undefined")}`);
      return;
    }
    const p = this.pending.get(id);
    if (!p) {
      this.handlers.onWarning(`dropped a response to unknown request id ${id}`);
      return;
    }
    this.pending.delete(id);
    release(p);
    if (m.error !== undefined && m.error !== null) {
      const err = (typeof m.error === "object" ? m.error : {}) as Record<string, unknown>;
      const message = typeof err.message === "string" && err.message.trim() !== "" ? err.message : "the plugin refused without a reason";
      const code = typeof err.code === "number" ? err.code : HOST_ERROR_CODE;
      p.reject(new PeerError("remote", message, { code, data: err.data }));
      return;
    }
    p.resolve(m.result === undefined ? null : m.result);
  }

  private serveRequest(id: unknown, method: string, params: unknown): void {
    if (this.callbacks.size >= this.limits.maxHostCallbacks) {
      // Serving more at once would let a runtime make the host spawn unbounded work.
      this.close(
        new PeerError("capacity", `plugin protocol capacity exceeded: host callbacks (at most ${this.limits.maxHostCallbacks} may run at once)`),
      );
      return;
    }
    const controller = new AbortController();
    this.callbacks.add(controller);
    let work: Promise<unknown>;
    try {
      work = Promise.resolve(this.handlers.onRequest(method, params, controller.signal));
    } catch (e) {
      work = Promise.reject(e);
    }
    work.then(
      (result) => this.respond(controller, id, { result: result === undefined ? null : result }),
      (e) => this.respond(controller, id, { error: { code: HOST_ERROR_CODE, message: e instanceof Error ? e.message : String(e) } }),
    );
  }

  private respond(controller: AbortController, id: unknown, body: { result?: unknown; error?: { code: number; message: string } }): void {
    if (!this.callbacks.delete(controller) || this.closed) return;
    let frame = JSON.stringify({ jsonrpc: "2.0", id, ...body });
    if (!fits(frame, this.limits.maxFrameBytes)) {
      frame = JSON.stringify({ jsonrpc: "2.0", id, error: { code: HOST_ERROR_CODE, message: "the host answer exceeds the 1 MiB protocol frame limit" } });
    }
    this.writeFrame(frame);
  }
}

function preview(line: string): string {
  const flat = line.replace(/[\x00-\x1f\x7f]/g, " ");
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}
