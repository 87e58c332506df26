import type { Context } from "../core/context.ts";
import type { CrashPoint } from "./crash-points.ts";

/**
 * TEST-ONLY crash injection. When `GJC_TEST_CRASH_AT` names this point, the process kills
 * itself with SIGKILL right there, exactly like `kill -9` from outside, so the crash tests can
 * prove every point leaves the store old or new. The points are the table in crash-points.ts.
 * Unset in normal use, it costs one property read.
 */
export function crashPoint(ctx: Context, point: CrashPoint): void {
  if (ctx.env.GJC_TEST_CRASH_AT === point) process.kill(process.pid, "SIGKILL");
}
