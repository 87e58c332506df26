/**
 * The GJC half of a sync or rollback: one commit of the whole scope (the same commit a single
 * install makes, src/install/transaction.ts), under the scope locks, after checking that the
 * scope is still what the change was planned against and that no new bundle collides.
 */
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { collisionError, findCollisions } from "../install/collisions.ts";
import type { Scope } from "../install/registry-types.ts";
import { withScopes } from "../install/scope-session.ts";
import { commitScopeChanges, type GjcChangeSet } from "../install/transaction.ts";
import { crashPoint } from "../store/crash-hook.ts";
import type { SetStep } from "../store/crash-points.ts";

/**
 * Applies the change set. `expect` is the registry state the plan was made against (entry
 * name → dir, or undefined for absent): if another command changed the scope meanwhile the
 * transaction stops with stale_baseline rather than overwrite that change.
 */
export async function commitGjcChanges(
  ctx: Context,
  scope: Scope,
  command: string,
  changes: GjcChangeSet,
  expect: Map<string, string | undefined>,
  step: SetStep,
): Promise<void> {
  await withScopes(ctx, scope, command, true, (s) => {
    const current = new Map(s.target.registry.plugins.map((p) => [p.name, p]));
    for (const [name, dir] of expect) {
      if (current.get(name)?.dir !== dir) {
        throw new GjcError({
          code: "stale_baseline",
          message: `${name} in the ${scope} scope changed while ${command} was prepared (another gjc command changed it).`,
          hint: `Run "${command}" again.`,
          exit: ExitCode.failed,
        });
      }
    }
    const other = scope === "user" ? s.project.registry.plugins : s.user.registry.plugins;
    const replaced = new Set([...changes.put.map((p) => p.bundle.name), ...changes.remove]);
    const kept = s.target.registry.plugins.filter((p) => !replaced.has(p.name));
    for (const p of changes.put) {
      const collisions = findCollisions(p.bundle, [...other, ...kept]);
      if (collisions.length > 0) throw collisionError(p.bundle, collisions);
    }
    const sorted = <T extends { disabledSurfaceIds: string[] }>(c: T): T => ({
      ...c,
      disabledSurfaceIds: [...c.disabledSurfaceIds].sort(),
    });
    commitScopeChanges(
      ctx,
      s.target,
      { put: changes.put.map(sorted), choices: changes.choices.map(sorted), remove: changes.remove },
      {
        staging: () => crashPoint(ctx, `${step}:staging`),
        placed: () => crashPoint(ctx, `${step}:placed`),
        committed: () => crashPoint(ctx, `${step}:committed`),
      },
    );
  });
}
