import type { Context } from "../core/context.ts";
import { lockTimeout, withLock } from "../store/lock.ts";
import { scopePathProblem, unsafeScopePath } from "../store/scope-path.ts";
import { C2_LOCK_FILE, c2Layout } from "./paths.ts";

export { C2_LOCK_FILE };

/**
 * One lock for the whole C2 data directory: installs, uninstalls, enable/trust flips and
 * policy applies all change what a plan was bound to, so they take turns. The wait is
 * bounded (`GJC_LOCK_TIMEOUT_MS`, default 15 s); a busy lock ends with `lock_busy` (exit 5).
 * The lock (and a data directory it had to create) is gone again when `fn` returns.
 */
export function withC2Lock<T>(ctx: Context, command: string, fn: () => Promise<T> | T): Promise<T> {
  const layout = c2Layout(ctx);
  return withLock(
    layout.root,
    { command, file: C2_LOCK_FILE, timeoutMs: lockTimeout(ctx), label: "the C2 data directory" },
    () => {
      // The data directory itself may sit behind the user's links; nothing inside it is followed.
      for (const dir of [layout.plugins, layout.dataRoot, layout.plans]) {
        const problem = scopePathProblem(layout.root, dir);
        if (problem !== undefined) throw unsafeScopePath("the C2 data directory", problem);
      }
      return fn();
    },
  );
}
