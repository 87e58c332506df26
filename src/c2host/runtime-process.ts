import type { Subprocess } from "bun";
import { readdirSync, readFileSync } from "node:fs";
import { FrameTooLargeError, LineSplitter } from "./line-splitter.ts";
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
}

/**
 * One runtime child in its own process group (`detached: true` makes it the group leader), with
 * a protocol peer on its stdio. Stopping kills the whole group, so grandchildren that ignore
 * SIGTERM go too, and the child is reaped before `stop()` resolves.
 */
export class RuntimeProcess {
  readonly peer: ProtocolPeer;
  readonly pid: number;
  /** Resolves with the exit code once the child is reaped. */
  readonly exited: Promise<number>;
  private stopping: Promise<void> | undefined;
  private stopRequested = false;
  private readonly proc: Subprocess<"pipe", "pipe", "pipe">;
  private readonly outputDone: Promise<void>;

  constructor(options: SpawnRuntimeOptions) {
    this.proc = Bun.spawn(options.argv, {
      cwd: options.cwd,
      env: options.env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
    this.pid = this.proc.pid;
    const stdin = this.proc.stdin;
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
      if (!this.stopRequested) signalGroup(this.pid, "SIGKILL");
    });
    this.exited = this.proc.exited.then((code) => {
      // Whatever the leader left behind in its group goes with it (and stops holding our pipes).
      signalGroup(this.pid, "SIGKILL");
      return code ?? -1;
    });
    this.outputDone = Promise.all([this.pumpStdout(), this.pumpStderr(options.onStderr)]).then(() => {});
  }

  /** Kills the group (SIGTERM, a short grace, then SIGKILL) and waits until the child is reaped. */
  stop(graceMs: number = TERM_GRACE_MS): Promise<void> {
    this.stopping ??= (async () => {
      this.stopRequested = true;
      this.peer.close(new PeerError("closed", "plugin runtime unloaded"));
      try {
        this.proc.stdin.end();
      } catch {
        // already closed
      }
      signalGroup(this.pid, "SIGTERM");
      if (graceMs > 0) await raceTimeout(this.proc.exited, graceMs);
      signalGroup(this.pid, "SIGKILL");
      await this.exited;
      await this.outputDone;
      await waitGroupGone(this.pid);
    })();
    return this.stopping;
  }

  private async pumpStdout(): Promise<void> {
    const reader = this.proc.stdout.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.peer.feed(value);
      }
    } catch {
      // a read error ends the stream like EOF does
    }
    const code = await raceTimeout(this.proc.exited, 1000);
    this.peer.end(code === undefined ? "the runtime closed its stdout" : `the runtime process exited with code ${code}`);
  }

  private async pumpStderr(onLine: (line: string) => void): Promise<void> {
    let splitter = new LineSplitter();
    const reader = this.proc.stderr.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        try {
          for (const line of splitter.push(value)) if (line.trim() !== "") onLine(line.replace(/\r$/, ""));
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

/** Signals a whole process group; a group that is already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nobody left in the group
  }
}

/**
 * SIGKILL is delivered asynchronously: a grandchild may still be running for a moment after
 * the signal. Wait (bounded) until no live member of the group is left, so "stopped" means
 * gone. Zombies waiting for init to reap them do not count.
 */
export async function waitGroupGone(pgid: number, limitMs = 2000): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (!groupHasMembers(pgid) || liveMembers(pgid) === 0) return;
    if (Date.now() > deadline) return;
    signalGroup(pgid, "SIGKILL");
    await new Promise((r) => setTimeout(r, 2));
  }
}

function groupHasMembers(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Live (non-zombie) members of a process group; without /proc, any member counts. */
function liveMembers(pgid: number): number {
  if (process.platform !== "linux") return groupHasMembers(pgid) ? 1 : 0;
  let n = 0;
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return groupHasMembers(pgid) ? 1 : 0;
  }
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 3);
    if (Number(rest[2]) === pgid && rest[0] !== "Z" && rest[0] !== "X") n++;
  }
  return n;
}

/** Waits for `p` at most `ms`; resolves undefined on timeout. The timer never outlives the wait. */
export function raceTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<undefined>((r) => {
    timer = setTimeout(() => r(undefined), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
