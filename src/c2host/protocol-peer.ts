import { flattenControlChars } from "../bundle/names.ts";
import { JsonRpcPeer, PeerError } from "../core/jsonrpc-peer.ts";
import { FrameTooLargeError, LineSplitter } from "../core/line-splitter.ts";
import { MAX_FRAME_BYTES, MAX_HOST_CALLBACKS, MAX_PENDING_REQUESTS } from "./limits.ts";

export type { RequestOptions } from "../core/jsonrpc-peer.ts";

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

/** Whether a frame plus its newline fits. */
const fits = (frame: string, max: number): boolean => Buffer.byteLength(frame, "utf8") + 1 <= max;

/**
 * One newline-delimited JSON-RPC 2.0 connection to a runtime (C2 Plugin Protocol 1.x): the
 * shared peer (src/core/jsonrpc-peer.ts) with the protocol's framing. Lines come through the one
 * line reader and must fit the frame limit; a line that is not a JSON object is dropped with a
 * warning; an outbound frame over the limit is refused before it is written.
 */
export class ProtocolPeer extends JsonRpcPeer {
  private readonly splitter: LineSplitter;
  private flushScheduled = false;
  readonly limits: PeerLimits;

  constructor(
    private readonly output: PeerOutput,
    private readonly peerHandlers: PeerHandlers,
    limits: Partial<PeerLimits> = {},
  ) {
    const merged = { ...defaultPeerLimits, ...limits };
    super(
      {
        onRequest: (method, params, signal) => peerHandlers.onRequest(method, params, signal),
        onNotification: (method, params) => peerHandlers.onNotification(method, params),
        onProtocolProblem: (what) => peerHandlers.onWarning(`dropped ${what}`),
      },
      {
        limits: { maxPendingRequests: merged.maxPendingRequests, maxServedRequests: merged.maxHostCallbacks },
        peerName: "the plugin",
      },
    );
    this.limits = merged;
    this.splitter = new LineSplitter(merged.maxFrameBytes);
  }

  /** Bytes from the runtime's stdout. */
  feed(chunk: Uint8Array): void {
    if (this.closed) return;
    let lines: string[];
    try {
      lines = this.splitter.push(chunk);
    } catch (e) {
      if (!(e instanceof FrameTooLargeError)) throw e;
      this.close(new PeerError("too_large", e.message));
      return;
    }
    for (const line of lines) {
      if (this.closed) return;
      this.receiveLine(line);
    }
  }

  /** The runtime's stdout ended. */
  end(reason = "the runtime closed its output"): void {
    const rest = this.splitter.flush();
    if (rest !== undefined) this.receiveLine(rest);
    this.close(new PeerError("closed", reason));
  }

  protected send(message: Record<string, unknown>): void {
    const frame = JSON.stringify(message);
    if (!fits(frame, this.limits.maxFrameBytes)) {
      const method = message.method;
      const what =
        typeof method !== "string"
          ? "the host answer"
          : message.id === undefined
            ? `the \`${method}\` notification`
            : `the \`${method}\` request`;
      throw new PeerError("too_large", `${what} exceeds the 1 MiB protocol frame limit and was not sent`);
    }
    this.output.write(`${frame}\n`);
    if (this.output.flush === undefined || this.flushScheduled) return;
    // Frames written in one turn of the event loop go out in one flush when the turn's
    // microtasks run: still before the loop waits for I/O (so no latency is added to a lone
    // call), and pipelined calls share one write.
    this.flushScheduled = true;
    queueMicrotask(() => {
      this.flushScheduled = false;
      if (this.closed) return;
      try {
        this.output.flush?.();
      } catch (e) {
        this.close(
          new PeerError("closed", `could not write to the runtime: ${e instanceof Error ? e.message : String(e)}`),
        );
      }
    });
  }

  private receiveLine(line: string): void {
    if (line.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.peerHandlers.onWarning(`dropped a stdout line that is not JSON: ${preview(line)}`);
      return;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      this.peerHandlers.onWarning(`dropped a stdout line that is not a JSON-RPC object: ${preview(line)}`);
      return;
    }
    this.receive(message);
  }
}

function preview(line: string): string {
  const flat = flattenControlChars(line);
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}
