/**
 * Shared helpers for scripts/bench/*.bench.ts. Every bench measures our command and a
 * baseline in the same run, on the same machine state, and prints the ratio: absolute
 * milliseconds differ between machines, ratios much less.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const repoRoot = join(import.meta.dir, "..", "..");
const benchDir = join(repoRoot, "dist", "bench");

export interface Timing {
  medianMs: number;
  minMs: number;
  samples: number[];
}

export interface TimeOptions {
  runs?: number;
  /** Unmeasured runs first (page cache, binary mapped). */
  warmup?: number;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Exit codes that count as success (default [0]); anything else aborts the bench. */
  okExit?: number[];
  /**
   * Run, untimed, before every run (warm-up included): resetting what the command changes, and
   * flushing the file system (`sync`) so that one side's fsync never pays for the other side's
   * dirty pages.
   */
  before?: string[];
}

function envOf(extra?: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1", ...extra })) if (v !== undefined) env[k] = v;
  return env;
}

async function runOnce(cmd: string[], o: TimeOptions): Promise<number> {
  if (o.before) {
    const prep = Bun.spawnSync(o.before, {
      cwd: o.cwd ?? repoRoot,
      env: envOf(o.env),
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
    if (prep.exitCode !== 0)
      throw new Error(`${o.before.join(" ")} exited ${prep.exitCode}\n${prep.stderr.toString()}`);
  }
  const start = Bun.nanoseconds();
  const proc = Bun.spawn(cmd, {
    cwd: o.cwd ?? repoRoot,
    env: envOf(o.env),
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  const ms = (Bun.nanoseconds() - start) / 1e6;
  if (!(o.okExit ?? [0]).includes(code)) throw new Error(`${cmd.join(" ")} exited ${code}\n${err}`);
  return ms;
}

/**
 * Puts a program's file into the page cache the same way for every program timed: its clean
 * pages dropped (GNU dd's nocache), then read once from start to end. How the pages of a
 * 110 MB Bun executable came into the cache (written by `bun build`, faulted in by exec, read
 * ahead by a sequential read) moves its start-up by up to 15 % on this VM: two byte-identical
 * copies of gjc timed 13.6 and 16.5 ms validating the small bundle, and 12.8 and 12.9 ms once
 * both were settled like this. Without it, a ratio says as much about which binary was written
 * last as about the code. Where dd has no nocache (not GNU), the read alone still runs.
 */
function settlePageCache(program: string | undefined): void {
  const path = program === undefined ? undefined : program.includes("/") ? program : Bun.which(program);
  if (!path || !existsSync(path)) return;
  Bun.spawnSync(["sync"]);
  Bun.spawnSync(["dd", `if=${path}`, "iflag=nocache", "count=0", "status=none"], {
    stdout: "ignore",
    stderr: "ignore",
  });
  Bun.spawnSync(["cat", path], { stdout: "ignore", stderr: "ignore" });
}

/** Spawns the command `runs` times (after `warmup` unmeasured runs), waiting for each to exit. */
export async function timeIt(cmd: string[], o: TimeOptions = {}): Promise<Timing> {
  settlePageCache(cmd[0]);
  for (let i = 0; i < (o.warmup ?? 2); i++) await runOnce(cmd, o);
  const samples: number[] = [];
  for (let i = 0; i < (o.runs ?? 15); i++) samples.push(await runOnce(cmd, o));
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const medianMs = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { medianMs, minMs: sorted[0], samples };
}

/**
 * Alternates ours and the baseline run by run, so both see the same machine load (the
 * machine is shared); returns both timings.
 */
export async function timePair(
  ours: string[],
  baseline: string[],
  o: TimeOptions & { baselineOptions?: TimeOptions } = {},
): Promise<[Timing, Timing]> {
  const bo = { ...o, ...o.baselineOptions };
  settlePageCache(ours[0]);
  settlePageCache(baseline[0]);
  for (let i = 0; i < (o.warmup ?? 2); i++) {
    await runOnce(ours, o);
    await runOnce(baseline, bo);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < (o.runs ?? 15); i++) {
    a.push(await runOnce(ours, o));
    b.push(await runOnce(baseline, bo));
  }
  return [summarize(a), summarize(b)];
}

function summarize(samples: number[]): Timing {
  const sorted = [...samples].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return { medianMs: sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2, minMs: sorted[0], samples };
}

/**
 * Peak resident memory of one run, in MiB. GNU time's %M (max RSS of the child, which is
 * what the kernel accounts in rusage) when /usr/bin/time exists; otherwise the child's
 * VmHWM from /proc/<pid>/status, polled every millisecond until it exits (the high-water
 * mark only grows, so the last reading before exit is the peak, possibly a little low).
 */
export async function peakRssMiB(cmd: string[], o: TimeOptions = {}): Promise<number> {
  if (existsSync("/usr/bin/time")) {
    const out = join(benchDir, `rss-${process.pid}.txt`);
    mkdirSync(benchDir, { recursive: true });
    const proc = Bun.spawn(["/usr/bin/time", "-f", "%M", "-o", out, ...cmd], {
      cwd: o.cwd ?? repoRoot,
      env: envOf(o.env),
      stdout: "ignore",
      stderr: "ignore",
    });
    await proc.exited;
    const kib = Number((await Bun.file(out).text()).trim().split("\n").pop());
    return kib / 1024;
  }
  const proc = Bun.spawn(cmd, { cwd: o.cwd ?? repoRoot, env: envOf(o.env), stdout: "ignore", stderr: "ignore" });
  let peakKiB = 0;
  let done = false;
  proc.exited.then(() => (done = true));
  while (!done) {
    try {
      const status = await Bun.file(`/proc/${proc.pid}/status`).text();
      const m = /VmHWM:\s+(\d+) kB/.exec(status);
      if (m) peakKiB = Math.max(peakKiB, Number(m[1]));
    } catch {
      // the process exited between the check and the read
    }
    await Bun.sleep(1);
  }
  return peakKiB / 1024;
}

/** A bare compiled Bun program (`console.log("hi")`): the floor any compiled CLI starts from. */
export async function helloBinary(): Promise<string> {
  const out = join(benchDir, "hello");
  if (existsSync(out)) return out;
  mkdirSync(benchDir, { recursive: true });
  const src = join(benchDir, "hello.ts");
  writeFileSync(src, 'console.log("hi");\n');
  const proc = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", src, "--outfile", out], {
    cwd: repoRoot,
    stdout: "ignore",
    stderr: "pipe",
  });
  if (proc.exitCode !== 0) throw new Error(`compiling the hello program failed:\n${proc.stderr.toString()}`);
  return out;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** dist/gjc, rebuilt with scripts/build.ts when missing or older than src/ or package.json. */
export async function gjcBinary(): Promise<string> {
  const out = join(repoRoot, "dist", process.platform === "win32" ? "gjc.exe" : "gjc");
  const sourceTime = Math.max(newestMtime(join(repoRoot, "src")), statSync(join(repoRoot, "package.json")).mtimeMs);
  if (!existsSync(out) || statSync(out).mtimeMs < sourceTime) {
    const proc = Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "build.ts")], {
      cwd: repoRoot,
      stdout: "ignore",
      stderr: "pipe",
    });
    if (proc.exitCode !== 0) throw new Error(`bun run build failed:\n${proc.stderr.toString()}`);
  }
  return out;
}

export interface Row {
  name: string;
  oursMs: number;
  baselineMs: number;
  baseline: string;
  /** The ratio ours/baseline must not exceed this. */
  limit?: number;
  /** Extra columns, e.g. peak memory. */
  note?: string;
}

/** Prints a table and returns whether every row with a limit met it. */
export function printTable(title: string, rows: Row[]): boolean {
  let allOk = true;
  const lines = rows.map((r) => {
    const ratio = r.oursMs / r.baselineMs;
    const ok = r.limit === undefined || ratio <= r.limit;
    allOk &&= ok;
    return [
      r.name,
      `${r.oursMs.toFixed(1)} ms`,
      `${r.baselineMs.toFixed(1)} ms (${r.baseline})`,
      `${ratio.toFixed(2)}x`,
      r.limit === undefined ? "" : `≤${r.limit}x ${ok ? "ok" : "MISSED"}`,
      r.note ?? "",
    ];
  });
  const header = ["case", "ours", "baseline", "ratio", "target", ""];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cols: string[]) =>
    cols
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  console.log(`\n${title}`);
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
  return allOk;
}
