/** The change set a crash point belongs to; a set change (sync, rollback) names its points by its step. */
export type CrashOperation =
  | "gjc-install"
  | "gjc-uninstall"
  | "c2-install"
  | "c2-uninstall"
  | "c2-policy"
  | "scaffold"
  | "set-change"
  | "upgrade-all";

/** The step of a set change, which prefixes its crash points (`sync:journaled`, `rollback:placed`). */
export type SetStep = "sync" | "rollback";

const setPoints = <S extends SetStep>(step: S) =>
  ({
    [`${step}:planned`]: { operation: "set-change", at: "content judged and cached, before the journal" },
    [`${step}:journaled`]: { operation: "set-change", at: "journal written, before the first commit point" },
    [`${step}:staging`]: { operation: "set-change", at: "half of a GJC bundle's files staged" },
    [`${step}:placed`]: { operation: "set-change", at: "GJC content directories placed, registry not yet committed" },
    [`${step}:committed`]: { operation: "set-change", at: "GJC registry committed (the GJC commit point)" },
    [`${step}:gjc-done`]: { operation: "set-change", at: "GJC side done, C2 side not started" },
    [`${step}:c2-done`]: { operation: "set-change", at: "C2 side done, generation and lock not yet recorded" },
  }) as Record<
    `${S}:${"planned" | "journaled" | "staging" | "placed" | "committed" | "gjc-done" | "c2-done"}`,
    { operation: "set-change"; at: string }
  >;

export interface CrashPointRow {
  operation: CrashOperation;
  /** Where the process dies: what is done and what is not. */
  at: string;
}

/**
 * Every point at which the crash tests kill gjc (kill -9, through GJC_TEST_CRASH_AT), in the
 * order an operation passes them. `crashPoint` (crash-hook.ts) takes only a name from this table, and the
 * crash tests iterate it (test/unit/store/crash-points.test.ts checks every point is
 * exercised by one), so a new point cannot go untested.
 */
export const CRASH_POINTS = {
  "install:compiled": { operation: "gjc-install", at: "bundle compiled, before the scope lock" },
  "install:locked": { operation: "gjc-install", at: "scope lock taken, nothing staged" },
  "install:staging": { operation: "gjc-install", at: "half of the files staged" },
  "install:staged": { operation: "gjc-install", at: "every file staged, not yet placed" },
  "install:placed": { operation: "gjc-install", at: "content directory placed, registry not yet committed" },
  "install:committed": {
    operation: "gjc-install",
    at: "registry committed (the commit point), last good copy not yet written",
  },
  "install:recorded": {
    operation: "gjc-install",
    at: "registry, last good copy and index written, old content not retired",
  },
  "install:retired": { operation: "gjc-install", at: "old content directory moved to the trash, not yet deleted" },
  "uninstall:removing": { operation: "gjc-uninstall", at: "some of the bundle's files removed, registry unchanged" },
  "uninstall:committed": {
    operation: "gjc-uninstall",
    at: "registry without the bundle committed, last good copy not yet written",
  },
  "c2install:staged": { operation: "c2-install", at: "bundle home staged beside the old one" },
  "c2install:backed-up": { operation: "c2-install", at: "old bundle home moved aside, new one not yet placed" },
  "c2install:committed": {
    operation: "c2-install",
    at: "new bundle home placed (the commit point), old one not yet deleted",
  },
  "c2uninstall:policy-forgotten": {
    operation: "c2-uninstall",
    at: "policy entries forgotten, bundle home still in place",
  },
  "c2uninstall:trashed": {
    operation: "c2-uninstall",
    at: "bundle home moved to the trash (the commit point), not yet deleted",
  },
  "c2policy:written": { operation: "c2-policy", at: "policy document committed, effective policy not yet checked" },
  "scaffold:staging-half": { operation: "scaffold", at: "half of the scaffold's files staged" },
  "scaffold:before-rename": { operation: "scaffold", at: "a new target staged whole, not yet renamed into place" },
  "scaffold:moved-one": {
    operation: "scaffold",
    at: "journal written and the first unit moved into an existing target",
  },
  ...setPoints("sync"),
  ...setPoints("rollback"),
  "upgrade-all:journaled": {
    operation: "upgrade-all",
    at: "the scope's bundles as they are journaled and cached, nothing upgraded",
  },
  "upgrade-all:one-upgraded": {
    operation: "upgrade-all",
    at: "one bundle upgraded (its family's commit done), the next not started",
  },
  "upgrade-all:upgraded": { operation: "upgrade-all", at: "every bundle upgraded, the journal not yet removed" },
} as const satisfies Record<string, CrashPointRow>;

export type CrashPoint = keyof typeof CRASH_POINTS;

/** The points of one operation, as a type: a test that maps each to its expected outcome names them all. */
export type CrashPointOf<O extends CrashOperation> = {
  [P in CrashPoint]: (typeof CRASH_POINTS)[P]["operation"] extends O ? P : never;
}[CrashPoint];

/** The points of one operation, in the order it passes them. */
export function crashPointsOf<O extends CrashOperation>(operation: O): CrashPointOf<O>[] {
  return (Object.keys(CRASH_POINTS) as CrashPoint[]).filter(
    (p): p is CrashPointOf<O> => CRASH_POINTS[p].operation === operation,
  );
}
