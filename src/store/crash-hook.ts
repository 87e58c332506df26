import type { Context } from "../core/context.ts";

/**
 * TEST-ONLY crash injection. When `GJC_TEST_CRASH_AT` names a step, the process kills itself
 * with SIGKILL right there, exactly like `kill -9` from outside, so the crash tests can prove
 * every step leaves a scope in the old or the new state. Steps are named where they are
 * called (`install:staged`, `install:placed`, `install:committed`, …). Unset in normal use,
 * it costs one property read.
 */
export function crashPoint(ctx: Context, step: string): void {
  if (ctx.env.GJC_TEST_CRASH_AT === step) process.kill(process.pid, "SIGKILL");
}
