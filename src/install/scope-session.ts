import { gjcTrustedBase } from "../store/scope-path.ts";
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import { leftoversWarning } from "./leftover-warning.ts";
import { acquireLock, lockTimeout, type HeldLock } from "../store/lock.ts";
import { LOCK_FILE, scopeLabel, scopeRoot } from "../families/gjc/layout.ts";
import { sweepLeftovers } from "./leftovers.ts";
import { readRegistry } from "./registry.ts";
import type { Scope, ScopeRegistry } from "./registry-types.ts";

export interface LockedScope {
  scope: Scope;
  root: string;
  registry: ScopeRegistry;
}

export interface ScopeSession {
  target: LockedScope;
  /** Both scopes' registries as read under the locks (the other one may be unlocked-empty). */
  user: LockedScope;
  project: LockedScope;
}

/**
 * Runs `fn` with the scope locks held, always user before project so two commands can never
 * wait on each other. `spanBoth` (install, upgrade) takes both because collisions span scopes:
 * the user lock always (its directory is made for the lock and removed again if it stays
 * empty), the project lock unless a user-scope command finds no project scope at all (nothing
 * to collide with there, and a project installer must pass the user lock first anyway). Each locked scope
 * is swept of leftovers, then its registry is read; a corrupt registry fails closed.
 */
export async function withScopes<T>(
  ctx: Context,
  target: Scope,
  command: string,
  spanBoth: boolean,
  fn: (s: ScopeSession) => Promise<T> | T,
): Promise<T> {
  const roots = { user: scopeRoot(ctx, "user"), project: scopeRoot(ctx, "project") };
  const order: Scope[] = spanBoth ? ["user", "project"] : [target];
  const held: HeldLock[] = [];
  try {
    const locked = new Set<Scope>();
    for (const scope of order) {
      if (scope === "project" && target !== "project" && !existsSync(roots.project)) continue;
      held.push(
        await acquireLock(roots[scope], {
          command,
          timeoutMs: lockTimeout(ctx),
          file: LOCK_FILE,
          label: scopeLabel(scope),
          trustedBase: gjcTrustedBase(roots[scope], scope),
        }),
      );
      locked.add(scope);
    }
    const view = (scope: Scope): LockedScope => {
      const registry = readRegistry(roots[scope], scope, ctx);
      if (locked.has(scope)) {
        const removed = sweepLeftovers(roots[scope], registry);
        if (removed.length > 0) ctx.log.info(leftoversWarning(scope, removed.length));
      }
      return { scope, root: roots[scope], registry };
    };
    const user =
      target === "user" || spanBoth
        ? view("user")
        : {
            scope: "user" as const,
            root: roots.user,
            registry: { version: 1 as const, scope: "user" as const, plugins: [] },
          };
    const project =
      target === "project" || spanBoth
        ? view("project")
        : {
            scope: "project" as const,
            root: roots.project,
            registry: { version: 1 as const, scope: "project" as const, plugins: [] },
          };
    return await fn({ target: target === "user" ? user : project, user, project });
  } finally {
    for (const lock of held.reverse()) lock.release();
  }
}
