/**
 * Where the sync and lock pipelines meet release logs (install and upgrade meet them in
 * src/store/release-log-hook.ts). Sync loads this module on every run, so it decides cheaply
 * whether a log is involved (a lock entry with a proof, a directory in the fetched source) and
 * loads the checks only then.
 */
import { join } from "node:path";
import type { Context } from "../core/context.ts";
import { readReleaseLogState } from "../store/release-log-state.ts";
import { hasReleaseLog, LOG_DIR } from "../tlog/layout.ts";
import type { CheckedRelease } from "../store/release-log-check.ts";
import type { LockEntry } from "../store/plugins-lock-schema.ts";

/** Lock entries with the log evidence remembered for their digest (`gjc plugin lock`). */
export function withLogEvidence(ctx: Context, entries: LockEntry[]): LockEntry[] {
  const { releases } = readReleaseLogState(ctx);
  return entries.map((e) => {
    const evidence = releases[e.integrity];
    if (evidence === undefined) return e;
    const { log: _old, ...rest } = e;
    return { ...rest, log: evidence };
  });
}

/** `sync`: the lock's recorded proofs, before anything is fetched or written (src/sets/release-log-sync.ts). */
export async function verifyLockedReleases(ctx: Context, entries: readonly LockEntry[]): Promise<void> {
  if (entries.some((e) => e.log)) (await import("./release-log-sync.ts")).verifyLockedReleases(ctx, entries);
}

/** `sync` fetching from a source: when the fetched bundle root has a log, it must hold the entry. */
export async function checkFetchedRelease(
  ctx: Context,
  bundleDir: string,
  e: LockEntry,
): Promise<CheckedRelease | undefined> {
  const logDir = join(bundleDir, LOG_DIR);
  return hasReleaseLog(logDir)
    ? (await import("./release-log-sync.ts")).checkFetchedRelease(ctx, logDir, e)
    : undefined;
}

/** After a sync committed: what it verified, and the lock's evidence, are remembered. */
export async function rememberSynced(
  ctx: Context,
  entries: readonly LockEntry[],
  fetched: readonly CheckedRelease[],
): Promise<void> {
  if (fetched.length > 0 || entries.some((e) => e.log))
    (await import("./release-log-sync.ts")).rememberSynced(ctx, entries, fetched);
}
