/**
 * Sandbox grants in a plugin set. A lock carries each bundle's grants as a choice, the way it
 * carries trust: `gjc plugin lock` writes them, `--check` compares them, and `gjc plugin sync`
 * makes the recorded grants exactly the lock's, except that it never raises a grant unasked
 * (the bundle is reported as needing grants, exit 3, until `--grant <name>` confirms it).
 *
 * A project lock arrives with a repository, so it may carry grants only for the project's own
 * GJC bundles, with paths inside the project (`./…`) or access to the project itself: it never
 * grants anything user-wide (C2 bundles are user-wide) or outside the project.
 */
import { isAbsolute, join, relative, sep } from "node:path";
import { expandHome, type Context } from "../core/context.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "../install/registry-types.ts";
import { formatNetGrant, parseNetGrant } from "../store/grant-values.ts";
import {
  emptyGrantSet,
  isEmptyGrantSet,
  mergeGrantSets,
  processKey,
  sameGrantSet,
  type GrantSet,
} from "../store/grants.ts";
import { recordedGrants } from "../store/grants-recorded.ts";
import type { LockEntry, LockFile, LockGrants, LockGrantSet } from "../store/plugins-lock-schema.ts";

const sorted = (xs: string[]) => [...new Set(xs)].sort();

function orderedSet(g: LockGrantSet): LockGrantSet {
  const out: LockGrantSet = {};
  if (g.read?.length) out.read = sorted(g.read);
  if (g.write?.length) out.write = sorted(g.write);
  if (g.net?.length) out.net = sorted(g.net);
  if (g.project) out.project = g.project;
  return out;
}

/** Keys in one order, empty parts left out, so the lock diffs line by line. */
export function orderedGrants(g: LockGrants): LockGrants {
  const out: LockGrants = {};
  if (g.bundle && Object.keys(orderedSet(g.bundle)).length) out.bundle = orderedSet(g.bundle);
  const processes = Object.entries(g.processes ?? {})
    .map(([k, v]) => [k, orderedSet(v)] as const)
    .filter(([, v]) => Object.keys(v).length > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  if (processes.length) out.processes = Object.fromEntries(processes);
  return out;
}

/** How a recorded path is written in a lock of the scope; undefined when that lock cannot carry it. */
function portable(ctx: Context, scope: Scope, path: string): string | undefined {
  const base = scope === "project" ? ctx.cwd : ctx.home;
  const rel = relative(base, path);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  if (scope === "project") return rel === "" ? "." : inside ? `./${rel.split(sep).join("/")}` : undefined;
  return inside ? `~/${rel.split(sep).join("/")}` : path;
}

function toLockSet(ctx: Context, scope: Scope, g: GrantSet): LockGrantSet {
  const keep = (xs: string[]) => xs.map((p) => portable(ctx, scope, p)).filter((p): p is string => p !== undefined);
  return orderedSet({
    read: keep(g.read),
    write: keep(g.write),
    net: g.net.map(formatNetGrant),
    ...(g.project ? { project: g.project } : {}),
  });
}

/** The recorded grants of a bundle as the scope's lock writes them; undefined when there are none it can carry. */
export function lockGrantsOf(ctx: Context, scope: Scope, family: "gjc" | "c2", name: string): LockGrants | undefined {
  if (family === "c2" && scope === "project") return undefined;
  const recorded = recordedGrants(ctx, family, family === "c2" ? "user" : scope, name);
  if (recorded.state !== "signed") return undefined;
  const g = orderedGrants({
    bundle: toLockSet(ctx, scope, recorded.bundle),
    processes: Object.fromEntries(
      recorded.processes.map((p) => [processKey(p.process)!, toLockSet(ctx, scope, p.grants)]),
    ),
  });
  return Object.keys(g).length ? g : undefined;
}

function setProblem(scope: Scope, g: LockGrantSet, at: string): string | undefined {
  for (const p of [...(g.read ?? []), ...(g.write ?? [])]) {
    if (scope === "project") {
      const parts = p.split("/");
      if (!(p === "." || p.startsWith("./")) || parts.includes("..") || p.includes("\\"))
        return `${at} grants ${JSON.stringify(p)}: a project lock may grant only paths inside the project (./…)`;
    } else if (!p.startsWith("/") && !p.startsWith("~/") && p !== "~")
      return `${at} grants ${JSON.stringify(p)}: a path must be absolute or start with ~/`;
  }
  for (const n of g.net ?? []) {
    try {
      parseNetGrant(n);
    } catch (error) {
      if (!isGjcError(error)) throw error;
      return `${at} has the net grant ${JSON.stringify(n)}, which is not host[:port]`;
    }
  }
  return undefined;
}

/** Why a lock entry's grants cannot be believed, or undefined. */
export function lockGrantsProblem(scope: Scope, e: LockEntry): string | undefined {
  if (!e.grants) return undefined;
  const at = `the grants of ${e.family} bundle ${e.name}`;
  if (scope === "project" && e.family === "c2")
    return `${at}: a project lock carries grants only for the project's own GJC bundles (C2 bundles are user-wide)`;
  const sets = [["bundle", e.grants.bundle] as const, ...Object.entries(e.grants.processes ?? {})];
  for (const [key, g] of sets) {
    const problem = g ? setProblem(scope, g, `${at} (${key})`) : undefined;
    if (problem) return problem;
  }
  return undefined;
}

function fromLockSet(ctx: Context, scope: Scope, g: LockGrantSet | undefined): GrantSet {
  if (!g) return emptyGrantSet();
  const abs = (p: string) => (scope === "project" ? join(ctx.cwd, p) : expandHome(ctx, p));
  return mergeGrantSets(emptyGrantSet(), {
    read: (g.read ?? []).map(abs),
    write: (g.write ?? []).map(abs),
    net: (g.net ?? []).map(parseNetGrant),
    project: g.project ?? null,
  });
}

/** A lock's grants as the grants store records them (absolute paths). */
export function grantsFromLock(
  ctx: Context,
  scope: Scope,
  g: LockGrants | undefined,
): { bundle: GrantSet; processes: Record<string, GrantSet> } {
  return {
    bundle: fromLockSet(ctx, scope, g?.bundle),
    processes: Object.fromEntries(Object.entries(g?.processes ?? {}).map(([k, v]) => [k, fromLockSet(ctx, scope, v)])),
  };
}

/** Whether `a` allows nothing that `b` does not. */
export function withinGrants(a: GrantSet, b: GrantSet): boolean {
  return sameGrantSet(mergeGrantSets(b, a), mergeGrantSets(b, emptyGrantSet()));
}

export interface GrantSyncItem {
  name: string;
  family: "gjc" | "c2";
  /** applied: recorded as the lock says (raised with --grant, or lowered); needs-confirmation: the lock grants more than is recorded. */
  action: "applied" | "needs-confirmation";
}

/** `sync --grant <name>` confirms a lock entry's grants; naming a bundle the set has no grants for is a usage error. */
export function checkGrantConfirmations(lock: LockFile, allowed: ReadonlySet<string>): void {
  const unknown = [...allowed].filter((n) => !lock.bundles.some((e) => e.name === n && e.grants));
  if (unknown.length === 0) return;
  throw new GjcError({
    code: "invalid_option_value",
    message: `--grant ${unknown.join(", ")}: the set has no grants for ${unknown.length === 1 ? "that bundle" : "those bundles"}.`,
    hint: "--grant only confirms the grants a lock entry carries; they are in the lock file under grants.",
    exit: ExitCode.usage,
  });
}

/**
 * What sync does with the lock's grants, bundle by bundle: nothing when they are what is
 * recorded; write them when they grant no more than is recorded (or `allowed` names the
 * bundle); otherwise report the bundle as needing confirmation and leave its grants alone.
 */
export async function syncGrants(
  ctx: Context,
  scope: Scope,
  lock: LockFile,
  allowed: ReadonlySet<string>,
  dryRun: boolean,
): Promise<GrantSyncItem[]> {
  const { setBundleGrants } = await import("./grant-writes.ts");
  const out: GrantSyncItem[] = [];
  for (const e of lock.bundles) {
    if (e.family === "c2" && scope === "project") continue;
    const storeScope = e.family === "c2" ? "user" : scope;
    const want = grantsFromLock(ctx, scope, e.grants);
    const have = recordedGrants(ctx, e.family, storeScope, e.name);
    const haveProcesses = Object.fromEntries(have.processes.map((p) => [processKey(p.process)!, p.grants]));
    const keys = [...new Set([...Object.keys(want.processes), ...Object.keys(haveProcesses)])];
    const same =
      sameGrantSet(want.bundle, have.bundle) &&
      keys.every((k) => sameGrantSet(want.processes[k] ?? emptyGrantSet(), haveProcesses[k] ?? emptyGrantSet()));
    if (same && have.state !== "foreign") continue;
    if (
      have.state === "foreign" &&
      isEmptyGrantSet(want.bundle) &&
      Object.values(want.processes).every(isEmptyGrantSet)
    )
      continue;
    const raises =
      have.state === "foreign" ||
      !withinGrants(want.bundle, have.bundle) ||
      Object.entries(want.processes).some(
        ([k, g]) => !withinGrants(g, mergeGrantSets(have.bundle, haveProcesses[k] ?? emptyGrantSet())),
      );
    if (raises && !allowed.has(e.name)) {
      out.push({ name: e.name, family: e.family, action: "needs-confirmation" });
      continue;
    }
    if (!dryRun) await setBundleGrants(ctx, e.family, storeScope, e.name, want);
    out.push({ name: e.name, family: e.family, action: "applied" });
  }
  return out;
}
