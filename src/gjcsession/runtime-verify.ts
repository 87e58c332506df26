import type { Context } from "../core/context.ts";
import { loadSession } from "./load.ts";
import { checkRuntimeSurfaces } from "./runtime-check.ts";
import { quarantineRuntimeFailures, runtimeTargets, summarizeRuntime, type RuntimeCheckSummary } from "./session.ts";

/**
 * `gjc plugin verify --runtime`: after the file check, every active tool and hook module (of
 * the named bundle, or all) is loaded in an isolated child and held to its declaration; a
 * mismatch quarantines that surface in its registry. The project scope is the working
 * directory's, as for the rest of verify.
 */
export async function verifyRuntime(
  ctx: Context,
  name?: string,
  options: { timeoutMs?: number } = {},
): Promise<RuntimeCheckSummary> {
  const state = await loadSession(ctx, { projectDir: ctx.cwd });
  const targets = runtimeTargets(state.bundles).filter((t) => name === undefined || t.bundle === name);
  const results = await checkRuntimeSurfaces(ctx, targets, { timeoutMs: options.timeoutMs });
  await quarantineRuntimeFailures(ctx, state, results);
  return summarizeRuntime(results);
}
