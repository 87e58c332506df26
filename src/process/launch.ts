import type { Subprocess } from "bun";
import { readFileSync } from "node:fs";
import { settleWithin } from "../core/timeout.ts";
import {
  descendantsOf,
  groupHasLiveMembers,
  hasProcTable,
  isLive,
  procTable,
  readProc,
  residentKiB,
  signalGroup,
  signalProcess,
  type ProcEntry,
} from "./proc-table.ts";
import { confine, type SandboxRequest } from "./sandbox/confine.ts";
import { becomeSubreaper, reap } from "./subreaper.ts";

type Pipe = "pipe" | "ignore" | "inherit";

export interface LaunchOptions<In extends Pipe, Out extends Pipe, Err extends Pipe> {
  argv: string[];
  cwd: string;
  /** The whole environment of the child: build it with buildChildEnv (src/process/env.ts). */
  env: Record<string, string>;
  stdin?: In;
  /** Bytes written to the child's stdin (then closed), instead of `stdin`. */
  input?: string | Uint8Array;
  stdout?: Out;
  stderr?: Err;
  /** After this long the whole tree is ended and `timedOut` is set. */
  timeoutMs?: number;
  /**
   * When the child and its descendants together hold more resident memory than this, the
   * whole tree is ended and `memoryExceeded` is set. Linux only (read from /proc every
   * MEMORY_POLL_MS, so a tree can overshoot by what it allocates in that time); elsewhere not
   * enforced (the README says so).
   */
  memoryLimitMiB?: number;
  /**
   * Confine the child (src/process/sandbox/): every process that runs bundle code sets this,
   * nothing else does (git, the user's own tools).
   */
  sandbox?: SandboxRequest;
}

/**
 * The memory a child that gjc starts only to check untrusted code may hold: a runtime check, an
 * MCP server under probe, verify --mcp or plugin test. A bun child starts at about 40 MiB.
 */
export const CHECK_MEMORY_LIMIT_MIB = 1024;
const MEMORY_POLL_MS = 50;

/** The variable that marks every process of one launch, so orphans re-parented to us can be told apart. */
export const TREE_MARKER = "GJC_PROCESS_TREE";

/**
 * A helper child that belongs to the caller's own launch: the sandbox stage's network
 * forwarder, which must end with the confined command the stage becomes. Unlike `launch`, it
 * stays in the caller's process group and carries the caller's tree marker (its whole
 * environment), so the launch that started the stage ends and reaps it with the rest of the
 * tree; it needs nothing else from the environment.
 */
export function spawnTreeHelper(
  argv: string[],
  env: Record<string, string | undefined>,
): Subprocess<"ignore", "pipe", "inherit"> {
  const marker = env[TREE_MARKER];
  return Bun.spawn(argv, {
    env: marker !== undefined ? { [TREE_MARKER]: marker } : {},
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
}

/** How long stop() keeps killing before it gives up on a process the kernel will not let go. */
const KILL_DEADLINE_MS = 2000;

const running = new Set<LaunchedProcess<Pipe, Pipe, Pipe>>();
let sequence = 0;
let exitHookInstalled = false;

/**
 * Starts a child through the one launcher: argv (never a shell), an environment the caller
 * built from the allow-list, its own process group and session (`detached: true`), an optional
 * timeout. `stop()` ends the child and every descendant and returns once they are reaped.
 */
export function launch<In extends Pipe = "pipe", Out extends Pipe = "pipe", Err extends Pipe = "pipe">(
  options: LaunchOptions<In, Out, Err>,
): LaunchedProcess<In, Out, Err> {
  becomeSubreaper();
  installExitHook();
  return new LaunchedProcess(options);
}

export class LaunchedProcess<In extends Pipe, Out extends Pipe, Err extends Pipe> {
  readonly proc: Subprocess<In, Out, Err>;
  readonly pid: number;
  /** The leader's exit code once Bun has reaped it (-1 for a signal). */
  readonly exited: Promise<number>;
  timedOut = false;
  /** Set when the tree was ended for holding more than `memoryLimitMiB`. */
  memoryExceeded = false;
  private readonly marker: string;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly memoryWatch: ReturnType<typeof setInterval> | undefined;
  private stopping: Promise<void> | undefined;
  private leaderDone = false;
  /** Every process seen alive as part of this launch's tree (so its zombie may be reaped). */
  private readonly tracked = new Set<number>();

  /** Removes what the sandbox made for this launch (its private temporary directory). */
  readonly disposeSandbox: () => void;

  constructor(options: LaunchOptions<In, Out, Err>) {
    this.marker = `${process.pid}.${++sequence}`;
    const confined = options.sandbox
      ? confine(options.argv, options.env, options.sandbox, runsCleanly)
      : { argv: options.argv, env: options.env, dispose() {} };
    this.disposeSandbox = confined.dispose;
    try {
      this.proc = Bun.spawn(confined.argv, {
        cwd: options.cwd,
        env: { ...confined.env, [TREE_MARKER]: this.marker },
        stdin: options.input !== undefined ? new Blob([options.input]) : (options.stdin ?? "pipe"),
        stdout: options.stdout ?? ("pipe" as Out),
        stderr: options.stderr ?? ("pipe" as Err),
        detached: true,
      });
    } catch (e) {
      confined.dispose();
      throw e;
    }
    this.pid = this.proc.pid;
    this.tracked.add(this.pid);
    running.add(this);
    this.exited = this.proc.exited.then((code) => {
      this.leaderDone = true;
      clearInterval(this.memoryWatch);
      // What the leader left in its group goes with it (and stops holding our pipes).
      signalGroup(this.pid, "SIGKILL");
      return code ?? -1;
    });
    if (options.memoryLimitMiB !== undefined && hasProcTable) {
      const limitKiB = options.memoryLimitMiB * 1024;
      this.memoryWatch = setInterval(() => {
        if (this.memoryExceeded || this.treeResidentKiB() <= limitKiB) return;
        this.memoryExceeded = true;
        void this.stop();
      }, MEMORY_POLL_MS);
    }
    if (options.timeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        void this.stop();
      }, options.timeoutMs);
    }
  }

  /**
   * Ends the child and all its descendants: SIGTERM and `graceMs` to exit on its own (when
   * asked), then SIGKILL to its group, to every descendant and its group, and to orphans of
   * this launch that were re-parented to gjc; resolves once none of them is alive and the
   * leader is reaped. Safe to call more than once.
   */
  stop(graceMs = 0): Promise<void> {
    this.stopping ??= (async () => {
      clearTimeout(this.timer);
      clearInterval(this.memoryWatch);
      if (graceMs > 0 && !this.leaderDone) {
        signalGroup(this.pid, "SIGTERM");
        await settleWithin(this.exited, graceMs);
      }
      await this.killTree();
      await this.exited;
      running.delete(this);
      await this.killTree();
      this.disposeSandbox();
    })();
    return this.stopping;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  /**
   * Every process of this launch in one table snapshot, added to `tracked`: descendants, its
   * process group, and orphans of this launch re-parented to gjc (the subreaper).
   */
  private trackTree(table: ProcEntry[]): Set<number> {
    const tracked = this.tracked;
    for (const p of descendantsOf(table, [...tracked])) tracked.add(p.pid);
    for (const p of table) if (p.pgid === this.pid || this.isOurOrphan(p)) tracked.add(p.pid);
    for (const p of descendantsOf(table, [...tracked])) tracked.add(p.pid);
    return tracked;
  }

  /** What the live processes of this launch hold in memory now, in KiB. */
  private treeResidentKiB(): number {
    const table = procTable();
    const tree = this.trackTree(table);
    return table.filter((p) => tree.has(p.pid) && isLive(p)).reduce((sum, p) => sum + residentKiB(p.pid), 0);
  }

  /** Kills until nothing of this launch is alive, reaping the zombies that were re-parented to us. */
  private async killTree(): Promise<void> {
    const deadline = Date.now() + KILL_DEADLINE_MS;
    const tracked = this.tracked;
    for (;;) {
      signalGroup(this.pid, "SIGKILL");
      if (!hasProcTable) {
        if (!groupHasLiveMembers(this.pid) || Date.now() > deadline) return;
        await Bun.sleep(1);
        continue;
      }
      const table = procTable();
      this.trackTree(table);
      const live = table.filter((p) => tracked.has(p.pid) && isLive(p));
      for (const p of live) {
        signalProcess(p.pid, "SIGKILL");
        if (p.pgid !== ownGroup() && p.pgid > 1) signalGroup(p.pgid, "SIGKILL");
      }
      reapOrphans(table, tracked);
      if (live.length === 0 || Date.now() > deadline) return;
      // SIGKILL is delivered asynchronously: give the kernel a moment, then look again.
      await Bun.sleep(1);
    }
  }

  /** A process re-parented to gjc that belongs to this launch (or to none that is still running). */
  private isOurOrphan(p: ProcEntry): boolean {
    if (p.ppid !== process.pid || isLaunched(p.pid) || !isLive(p)) return false;
    const marker = treeMarkerOf(p.pid);
    if (marker === this.marker) return true;
    // A process that cleared its environment cannot be attributed: it ends with the last launch.
    // Not one in gjc's own process group, though: nothing of a launch can be there (each launch
    // starts a session of its own, and a group cannot be joined across sessions), so such a
    // process is a child this program started some other way, not ours to end.
    return marker === undefined && p.pgid !== ownGroup() && [...running].every((r) => r === this);
  }
}

const isLaunched = (pid: number) => [...running].some((r) => r.pid === pid);

let group: number | undefined;
/** gjc's own process group (it never changes it). */
const ownGroup = () => (group ??= readProc(process.pid)?.pgid ?? process.pid);

function treeMarkerOf(pid: number): string | undefined {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, "latin1");
    const entry = environ.split("\0").find((e) => e.startsWith(`${TREE_MARKER}=`));
    return entry?.slice(TREE_MARKER.length + 1);
  } catch {
    return undefined;
  }
}

/**
 * Zombies of this launch re-parented to gjc are ours to collect (Bun waits only for the
 * children it spawned). Only processes seen alive as part of this tree are reaped, never a
 * child that some other code of this process spawned and is about to wait for.
 */
function reapOrphans(table: ProcEntry[], tracked: Set<number>): void {
  for (const p of table)
    if (p.ppid === process.pid && p.state === "Z" && tracked.has(p.pid) && !isLaunched(p.pid)) reap(p.pid);
}

/** Runs a short probe to completion (the sandbox asks whether `unshare` works here). */
export function runsCleanly(argv: string[]): boolean {
  try {
    return Bun.spawnSync(argv, { stdin: "ignore", stdout: "ignore", stderr: "ignore", env: {} }).exitCode === 0;
  } catch {
    return false;
  }
}

/** If gjc exits while children run (an uncaught error, a signal handler), their trees go first. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const r of running) signalGroup(r.pid, "SIGKILL");
    for (const p of procTable()) if (p.ppid === process.pid && isLive(p)) signalProcess(p.pid, "SIGKILL");
    for (const r of running) r.disposeSandbox();
  });
}
