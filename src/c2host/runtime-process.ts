import { settleWithin, TIMED_OUT, within } from "../core/timeout.ts";
import { launch, type LaunchedProcess } from "../process/launch.ts";
import type { SandboxRequest } from "../process/sandbox/confine.ts";
import { reportDenials } from "../process/sandbox/denials.ts";
import { FrameTooLargeError, LineSplitter } from "../core/line-splitter.ts";
import { TERM_GRACE_MS } from "./limits.ts";
import { PeerError } from "./peer-errors.ts";
import { ProtocolPeer, type PeerHandlers, type PeerLimits } from "./protocol-peer.ts";

export interface SpawnRuntimeOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  handlers: PeerHandlers;
  limits?: Partial<PeerLimits>;
  /** One line of the runtime's stderr (its log channel). */
  onStderr(line: string): void;
  /** The sandbox the runtime starts in (every runtime has one). */
  sandbox: SandboxRequest;
}

/**
 * One runtime child, started by the one launcher (src/process/launch.ts), with a protocol peer
 * on its stdio. Stopping ends the child and every descendant (grandchildren that ignore
 * SIGTERM or left the group included), and they are reaped before `stop()` resolves.
 */
export class RuntimeProcess {
  readonly peer: ProtocolPeer;
  readonly pid: number;
  /** Resolves with the exit code once the child is reaped. */
  readonly exited: Promise<number>;
  private stopping: Promise<void> | undefined;
  private stopRequested = false;
  private readonly child: LaunchedProcess<"pipe", "pipe", "pipe">;
  private readonly outputDone: Promise<void>;

  constructor(options: SpawnRuntimeOptions) {
    this.child = launch({ argv: options.argv, cwd: options.cwd, env: options.env, sandbox: options.sandbox });
    this.pid = this.child.pid;
    const stdin = this.child.proc.stdin;
    this.peer = new ProtocolPeer(
      {
        write: (frame) => swallow(stdin.write(frame)),
        flush: () => swallow(stdin.flush()),
      },
      options.handlers,
      options.limits,
    );
    // A peer that closes on its own (oversized frame, callback flood, timeout) leaves the process
    // in an unknown state: end the group at once. A requested stop keeps its SIGTERM grace.
    this.peer.onClose(() => {
      if (!this.stopRequested) void this.child.stop();
    });
    this.exited = this.child.exited;
    // A connection the sandbox refused, as the runtime logged it, names the grant to allow it.
    const onStderr = (line: string) => {
      reportDenials(options.sandbox.subject, line);
      options.onStderr(line);
    };
    this.outputDone = Promise.all([this.pumpStdout(), this.pumpStderr(onStderr)]).then(() => {});
  }

  /** Kills the group (SIGTERM, a short grace, then SIGKILL) and waits until the child is reaped. */
  stop(graceMs: number = TERM_GRACE_MS): Promise<void> {
    this.stopping ??= (async () => {
      this.stopRequested = true;
      this.peer.close(new PeerError("closed", "plugin runtime unloaded"));
      try {
        this.child.proc.stdin.end();
      } catch {
        // already closed
      }
      await this.child.stop(graceMs);
      // The whole tree is gone, so the pipes end now (where a process could leave its session
      // and keep them open, macOS and Windows, we stop waiting after a second).
      await settleWithin(this.outputDone, 1000);
    })();
    return this.stopping;
  }

  private async pumpStdout(): Promise<void> {
    const reader = this.child.proc.stdout.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.peer.feed(value);
      }
    } catch {
      // a read error ends the stream like EOF does
    }
    const code = await within(this.exited, 1000);
    this.peer.end(
      code === TIMED_OUT ? "the runtime closed its stdout" : `the runtime process exited with code ${code}`,
    );
  }

  private async pumpStderr(onLine: (line: string) => void): Promise<void> {
    let splitter = new LineSplitter();
    const reader = this.child.proc.stderr.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        try {
          for (const line of splitter.push(value)) if (line.trim() !== "") onLine(line);
        } catch (e) {
          if (!(e instanceof FrameTooLargeError)) throw e;
          onLine("(a stderr line longer than 1 MiB was dropped)");
          splitter = new LineSplitter();
        }
      }
    } catch {
      // stderr is best effort
    }
    const rest = splitter.flush();
    if (rest !== undefined && rest.trim() !== "") onLine(rest);
  }
}

/** Writes to a dead pipe fail asynchronously; the peer learns about it from the exit instead. */
function swallow(result: number | Promise<number>): void {
  if (result instanceof Promise) result.catch(() => {});
}
