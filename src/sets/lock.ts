/**
 * `gjc plugin lock`: write the lock of a scope from what is installed, or (`--check`) compare
 * the lock with the installed state, files on disk included, and change nothing.
 */
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "../install/registry-types.ts";
import type { FileProblemKind } from "../store/verify.ts";
import { diskProblems } from "../store/disk-check.ts";
import { installedBundles, type InstalledBundle } from "./installed.ts";
import { orderedEntry, readLockFile, serializeLock, writeLockFile } from "./lock-file.ts";
import { projectPolicy, samePolicy } from "./c2-policy.ts";
import type { LockEntry, LockFile, LockPolicy } from "../store/plugins-lock-schema.ts";
import { lockPath } from "../store/set-paths.ts";
import { pendingJournal, readJournal } from "../store/journal.ts";

export interface LockDifference {
  name: string;
  family: "gjc" | "c2";
  /** missing: in the lock, not installed; extra: installed, not in the lock; changed: a field differs; drifted: files on disk differ from the record. */
  kind: "missing" | "extra" | "changed" | "drifted";
  /** The fields that differ (changed). */
  fields?: string[];
  /** The installed files that differ from the record, and how (drifted). */
  files?: { kind: FileProblemKind; path: string }[];
}

export interface LockWriteResult {
  scope: Scope;
  path: string;
  bundles: LockEntry[];
  changed: boolean;
}

export interface LockCheckResult {
  scope: Scope;
  path: string;
  ok: boolean;
  differences: LockDifference[];
}

/** Writes the lock from the installed set, after finishing a change a killed command left (journal.ts). */
export async function writeScopeLock(ctx: Context, scope: Scope): Promise<LockWriteResult> {
  const { inSetTransaction } = await import("./sync.ts");
  return inSetTransaction(ctx, scope, "gjc plugin lock", () => writeLockNow(ctx, scope));
}

async function writeLockNow(ctx: Context, scope: Scope): Promise<LockWriteResult> {
  const path = lockPath(ctx, scope);
  const existing = readLockFile(path, scope);
  const { withLogEvidence } = await import("./release-log-hook.ts");
  const bundles = withLogEvidence(
    ctx,
    (await installedBundles(ctx, scope)).map((b) => b.entry),
  );
  const {
    $schema: _s,
    lockfileVersion: _v,
    scope: _sc,
    bundles: _b,
    c2Policy: _p,
    ...extra
  } = existing ?? ({} as Partial<LockFile>);
  const next: LockFile = { ...extra, lockfileVersion: 1, scope, bundles };
  if (scope === "project") {
    const policy = await projectPolicy(ctx);
    if (policy.length > 0) next.c2Policy = policy;
  }
  const changed = existing === undefined || serializeLock(existing) !== serializeLock(next);
  if (changed) writeLockFile(path, next);
  return { scope, path, bundles: next.bundles.map(orderedEntry), changed };
}

const FIELDS = [
  "version",
  "source",
  "pin",
  "integrity",
  "files",
  "enabled",
  "disabledSurfaces",
  "c2",
  "signer",
] as const;

/** The fields where two entries of the same bundle differ. */
export function entryDifferences(want: LockEntry, have: LockEntry): string[] {
  const a = orderedEntry(want) as Record<string, unknown>;
  const b = orderedEntry(have) as Record<string, unknown>;
  return FIELDS.filter((f) => !Bun.deepEquals(a[f], b[f]));
}

/**
 * Each lock entry with the installed bundle of the same family and name (if any), then the
 * installed bundles the lock does not name.
 */
export function pairWithInstalled(
  lock: LockFile,
  installed: InstalledBundle[],
): { pairs: { want: LockEntry; have?: InstalledBundle }[]; extra: InstalledBundle[] } {
  const key = (e: { family: string; name: string }) => `${e.family}:${e.name}`;
  const unclaimed = new Map(installed.map((b) => [key(b.entry), b]));
  const pairs: { want: LockEntry; have?: InstalledBundle }[] = [];
  for (const want of lock.bundles) {
    pairs.push({ want, have: unclaimed.get(key(want)) });
    unclaimed.delete(key(want));
  }
  // A C2 bundle the project has no policy for is the user's, not an extra of the project's set.
  return { pairs, extra: [...unclaimed.values()].filter((b) => b.member !== false) };
}

/** Lock vs installed: the registry facts and the bytes on disk. */
export function compareWithInstalled(lock: LockFile, installed: InstalledBundle[]): LockDifference[] {
  const { pairs, extra } = pairWithInstalled(lock, installed);
  const out: LockDifference[] = [];
  for (const { want, have: b } of pairs) {
    if (!b) {
      out.push({ name: want.name, family: want.family, kind: "missing" });
      continue;
    }
    const fields = entryDifferences(want, b.entry);
    // Grants are a choice like trust, compared here but never a reason to reinstall.
    if (JSON.stringify(want.grants ?? {}) !== JSON.stringify(b.entry.grants ?? {})) fields.push("grants");
    if (fields.length > 0) out.push({ name: want.name, family: want.family, kind: "changed", fields });
    else {
      const problems = diskProblems(b);
      if (problems.length > 0)
        out.push({
          name: want.name,
          family: want.family,
          kind: "drifted",
          files: problems.map((p) => ({ kind: p.kind, path: p.path })),
        });
    }
  }
  for (const b of extra) out.push({ name: b.entry.name, family: b.entry.family, kind: "extra" });
  return out;
}

export function noLock(path: string, scope: Scope): GjcError {
  return new GjcError({
    code: "lock_missing",
    message: `There is no lock file at ${path}.`,
    hint: `Write one from the installed state with "gjc plugin lock --${scope}".`,
    details: { path },
    exit: ExitCode.failed,
  });
}

export async function checkScopeLock(ctx: Context, scope: Scope): Promise<LockCheckResult> {
  const path = lockPath(ctx, scope);
  const lock = readLockFile(path, scope);
  if (!lock) throw noLock(path, scope);
  // A half-finished change is not compared (nothing is changed here either): exit 1, say so.
  const pending = readJournal(ctx, scope);
  if (pending) throw pendingJournal(scope, pending);
  const differences = compareWithInstalled(lock, await installedBundles(ctx, scope, { allC2: true }));
  if (scope === "project") differences.push(...comparePolicies(lock.c2Policy ?? [], await projectPolicy(ctx)));
  return { scope, path, ok: differences.length === 0, differences };
}

/** The project's C2 policy against the lock's, by bundle name. */
export function comparePolicies(want: LockPolicy[], have: LockPolicy[]): LockDifference[] {
  const names = [...new Set([...want.map((p) => p.name), ...have.map((p) => p.name)])].sort();
  const out: LockDifference[] = [];
  for (const name of names) {
    if (
      !samePolicy(
        want.find((p) => p.name === name),
        have.find((p) => p.name === name),
      )
    )
      out.push({ name, family: "c2", kind: "changed", fields: ["c2Policy"] });
  }
  return out;
}
