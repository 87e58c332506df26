import type { Code } from "../core/codes.ts";
import { flattenControlChars } from "../bundle/names.ts";
import type { Context } from "../core/context.ts";
import type { Scope } from "../install/registry-types.ts";
import { readLines } from "../core/line-splitter.ts";
import { settleWithin, TIMED_OUT, within } from "../core/timeout.ts";
import { CHECK_MEMORY_LIMIT_MIB, launch } from "../process/launch.ts";
import { reportDenials } from "../process/sandbox/denials.ts";
import { profileFor } from "../store/sandbox-profile.ts";
import { bunArgv, childEnv, makeScratch, type Scratch } from "./isolated-bun.ts";

/** One tool or hook module of an installed, verified bundle, with what its manifest declares. */
export interface RuntimeTarget {
  scope: Scope;
  bundle: string;
  pluginRoot: string;
  surfaceId: string;
  kind: "tool" | "hook";
  /** The module's installed path, relative to the bundle root (an installed file: session start checked). */
  path: string;
  /** Absolute path of the module under the installed root. */
  module: string;
  /** Declared tool name, or hook name. */
  name: string;
  /** Declared hook event. */
  event?: string;
}

export interface RuntimeCheckResult {
  target: RuntimeTarget;
  ok: boolean;
  /** Quarantine code when not ok: runtime_mismatch, security_policy or invalid_hook. */
  code?: Code;
  message?: string;
  /** The tail of the child's stderr, for diagnosis. */
  log?: string;
}

export interface RuntimeCheckOptions {
  /** How long one module may take to load and register (default 5 s). */
  timeoutMs?: number;
  /** Children at once (default 2: the checks are CPU-bound start-ups). */
  concurrency?: number;
}

interface HarnessReport {
  imported: boolean;
  importError?: string;
  isFunction: boolean;
  factoryError?: string;
  denied: string[];
  registrations: { event: string; handler: string }[];
  tools: { name: string | null; execute: string }[];
}

const STDOUT_CAP = 1024 * 1024;
const STDERR_TAIL = 4096;
const DEFAULT_TIMEOUT_MS = 5000;

let harnessSource: Promise<string> | undefined;
/** The harness is embedded as text (so it travels inside the compiled binary) and written to scratch. */
const loadHarness = () =>
  (harnessSource ??= import("./runtime-harness.mjs", { with: { type: "text" } }).then((m) => m.default));

const clean = (s: string) => flattenControlChars(s).trim().slice(0, 300);

/** Turns what the child saw into a verdict (gjc-notes §6.3-6.4). */
export function judge(
  target: RuntimeTarget,
  r: HarnessReport,
): { ok: true } | { ok: false; code: Code; message: string } {
  const what = target.kind === "tool" ? `Plugin tool "${target.name}"` : `Plugin hook "${target.name}"`;
  if (r.denied.length > 0) {
    return {
      ok: false,
      code: "security_policy",
      message: `${what} of ${target.bundle} attempted denied API: ${[...new Set(r.denied)].join(", ")}`,
    };
  }
  if (!r.imported) {
    return {
      ok: false,
      code: target.kind === "hook" ? "invalid_hook" : "runtime_mismatch",
      message: `Failed to import ${what.toLowerCase()}: ${clean(r.importError ?? "unknown error")}`,
    };
  }
  if (!r.isFunction) {
    return {
      ok: false,
      code: target.kind === "hook" ? "invalid_hook" : "runtime_mismatch",
      message: `${what} must export a default factory function.`,
    };
  }
  if (r.factoryError !== undefined) {
    return { ok: false, code: "runtime_mismatch", message: `${what}: the factory threw: ${clean(r.factoryError)}` };
  }
  if (target.kind === "tool") {
    const names = r.tools.map((t) => t.name);
    if (names.length !== 1 || names[0] !== target.name) {
      return {
        ok: false,
        code: "runtime_mismatch",
        message: `Tool factory returned ${JSON.stringify(names.map((n) => n ?? "<unnamed>"))}, expected exactly ${JSON.stringify([target.name])}`,
      };
    }
    if (r.tools[0].execute !== "function")
      return { ok: false, code: "runtime_mismatch", message: `Tool "${target.name}" has no execute function.` };
    return { ok: true };
  }
  const events = r.registrations.map((x) => x.event);
  if (events.length !== 1 || events[0] !== target.event) {
    return {
      ok: false,
      code: "runtime_mismatch",
      message: `Plugin hook registered ${JSON.stringify(events)}, expected exactly ${JSON.stringify([target.event])}`,
    };
  }
  if (r.registrations[0].handler !== "function")
    return {
      ok: false,
      code: "runtime_mismatch",
      message: `Plugin hook "${target.name}" registered a handler that is not a function.`,
    };
  return { ok: true };
}

/** The part of a stream reader we use (Bun's pipes are byte streams of ArrayBuffer-backed chunks). */
interface Reader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
}

async function readTail(reader: Reader, keep: number, out: { text: string }): Promise<void> {
  const decoder = new TextDecoder();
  for (;;) {
    const next = await reader.read();
    if (next.done || !next.value) return;
    out.text = (out.text + decoder.decode(next.value, { stream: true })).slice(-keep);
  }
}

/** Waits for the line `<nonce> <json>`; resolves undefined at EOF or on a line past the output cap. */
async function readReport(stdout: ReadableStream<Uint8Array>, nonce: string): Promise<HarnessReport | undefined> {
  const marker = `${nonce} `;
  for await (const line of readLines(stdout, STDOUT_CAP)) {
    if (!line.startsWith(marker)) continue;
    try {
      return JSON.parse(line.slice(marker.length)) as HarnessReport;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

async function checkOne(
  ctx: Context,
  scratch: Scratch,
  harness: string,
  target: RuntimeTarget,
  timeoutMs: number,
): Promise<RuntimeCheckResult> {
  const nonce = crypto.randomUUID();
  // Confined like every bundle process; it also reads the harness and empty bunfig in our scratch.
  const subject = { bundle: target.bundle };
  const profile = await profileFor(ctx, subject, { read: [target.pluginRoot, scratch.dir], write: [], net: [] });
  const child = launch({
    argv: bunArgv(scratch.emptyConfig, harness),
    cwd: target.pluginRoot,
    env: childEnv(ctx),
    memoryLimitMiB: CHECK_MEMORY_LIMIT_MIB,
    sandbox: { subject, profile, hostEnv: ctx.env },
  });
  const { proc } = child;
  const stderrReader = proc.stderr.getReader();
  const stderr = { text: "" };
  const stderrDone = readTail(stderrReader, STDERR_TAIL, stderr).catch(() => {});
  try {
    proc.stdin.write(JSON.stringify({ nonce, kind: target.kind, module: target.module, name: target.name }));
    await proc.stdin.end();
  } catch {
    // The child died before reading its request; judged below as "no report".
  }
  const outcome = await within(
    readReport(proc.stdout, nonce).catch(() => undefined),
    timeoutMs,
  );
  await child.stop();
  const exitCode = await child.exited;
  // Every process of the tree is gone now (on Linux; elsewhere one that left its session may
  // still hold the pipe), so the end of the pipe comes at once or not at all.
  await settleWithin(stderrDone, 1000);
  const log = stderr.text.trim() === "" ? undefined : stderr.text;
  if (log !== undefined) reportDenials(subject, log);
  if (child.memoryExceeded) {
    return {
      target,
      ok: false,
      code: "runtime_mismatch",
      message: `Plugin ${target.kind} "${target.name}" held more than ${CHECK_MEMORY_LIMIT_MIB} MiB of memory while loading; it was stopped.`,
      log,
    };
  }
  if (outcome === TIMED_OUT) {
    return {
      target,
      ok: false,
      code: "runtime_mismatch",
      message: `Plugin ${target.kind} "${target.name}" did not finish loading within ${timeoutMs} ms; it was stopped.`,
      log,
    };
  }
  if (outcome === undefined) {
    return {
      target,
      ok: false,
      code: "runtime_mismatch",
      message: `Plugin ${target.kind} "${target.name}" ended (exit ${exitCode}) before it could be checked.`,
      log,
    };
  }
  const verdict = judge(target, outcome);
  return verdict.ok ? { target, ok: true } : { target, ok: false, code: verdict.code, message: verdict.message, log };
}

/**
 * Loads each tool or hook module in its own isolated bun child (never in this process): the
 * constrained API, an allow-listed environment, the bundle root as working directory, the
 * isolating bun flags, its own process group, a timeout, and the whole group killed at the
 * end. Returns one result per target, in order; quarantining is up to the caller.
 */
export async function checkRuntimeSurfaces(
  ctx: Context,
  targets: RuntimeTarget[],
  options: RuntimeCheckOptions = {},
): Promise<RuntimeCheckResult[]> {
  if (targets.length === 0) return [];
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const scratch = makeScratch(ctx);
  try {
    const harness = scratch.write("runtime-harness.mjs", await loadHarness());
    const results: RuntimeCheckResult[] = new Array(targets.length);
    let next = 0;
    const worker = async () => {
      while (next < targets.length) {
        const i = next++;
        results[i] = await checkOne(ctx, scratch, harness, targets[i], timeoutMs);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 2, targets.length) }, worker));
    return results;
  } finally {
    scratch.dispose();
  }
}
