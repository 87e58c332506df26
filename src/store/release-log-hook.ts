/**
 * Where the install, upgrade, sync and lock pipelines meet release logs. This module is loaded
 * on every install, so it decides cheaply whether a log is involved (a directory there, a lock
 * entry with a proof, a source remembered as logged) and loads the checks only then.
 */
import { join } from "node:path";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { InstallResult } from "../store/documents.ts";
import { hasReleaseLog, LOG_DIR } from "../tlog/layout.ts";
import type { CheckedRelease } from "./release-log-check.ts";
import type { LockEntry } from "./lock-schema.ts";
import { readReleaseLogState, rememberVerified } from "./release-log-state.ts";

/**
 * The install pipeline's hook: each release log of the source (`gjc-log/` at the fetched bundle
 * root, and for catalog entries the one beside the catalog) must hold the release, checked
 * before `install` runs so a refusal writes nothing; the verified heads and proofs are
 * remembered after a real install, with the source, which may then not drop its log.
 */
export async function withReleaseLog<T extends InstallResult>(
  ctx: Context,
  source: { dir: string; identity: string },
  dryRun: boolean | undefined,
  install: () => Promise<T>,
  otherLogDirs: readonly string[] = [],
): Promise<T> {
  const logDirs = [...otherLogDirs, join(source.dir, LOG_DIR)].filter(hasReleaseLog);
  if (logDirs.length === 0) {
    const origin = readReleaseLogState(ctx).sources[source.identity];
    if (origin !== undefined) throw logDropped(source.identity, origin);
    return install();
  }
  const [{ judgeBundle }, { checkRelease }, { readReleaseLog }] = await Promise.all([
    import("../store/bundle-digest.ts"),
    import("./release-log-check.ts"),
    import("../tlog/log-dir.ts"),
  ]);
  const judged = await judgeBundle(source.dir);
  const checked = logDirs.map((d) =>
    checkRelease(ctx, readReleaseLog(d), { name: judged.name, version: judged.version, digest: judged.integrity }),
  );
  const result = await install();
  // The document (and the source's memory) names the first log: the catalog's, when there is one.
  const [first] = checked;
  if (!dryRun)
    rememberVerified(
      ctx,
      checked.map((c) => c.head),
      checked.map((c) => ({ digest: c.digest, evidence: c.evidence })),
      { identity: source.identity, origin: first.head.origin },
    );
  return {
    ...result,
    releaseLog: {
      origin: first.head.origin,
      size: first.head.size,
      index: first.evidence.index,
      firstSeen: first.firstSeen,
    },
  };
}

function logDropped(identity: string, origin: string): GjcError {
  return new GjcError({
    code: "log_missing",
    message: `This source came with the release log ${origin} before, and now has none (${identity}). Nothing was written.`,
    hint: "A source that publishes a release log keeps it: a log that disappears hides what was published. Ask the publisher why it is gone. If they really stopped publishing one, removing ~/.gjc/release-logs.json makes gjc forget every log it has seen (the next checkpoint of each is then believed on first use).",
    details: { identity, origin },
    exit: ExitCode.refused,
  });
}

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

/** `sync`: the lock's recorded proofs, before anything is fetched or written (src/sets/release-log-check.ts). */
export async function verifyLockedReleases(ctx: Context, entries: readonly LockEntry[]): Promise<void> {
  if (entries.some((e) => e.log)) (await import("./release-log-check.ts")).verifyLockedReleases(ctx, entries);
}

/** `sync` fetching from a source: when the fetched bundle root has a log, it must hold the entry. */
export async function checkFetchedRelease(
  ctx: Context,
  bundleDir: string,
  e: LockEntry,
): Promise<CheckedRelease | undefined> {
  const logDir = join(bundleDir, LOG_DIR);
  return hasReleaseLog(logDir)
    ? (await import("./release-log-check.ts")).checkFetchedRelease(ctx, logDir, e)
    : undefined;
}

/** After a sync committed: what it verified, and the lock's evidence, are remembered. */
export async function rememberSynced(
  ctx: Context,
  entries: readonly LockEntry[],
  fetched: readonly CheckedRelease[],
): Promise<void> {
  if (fetched.length > 0 || entries.some((e) => e.log))
    (await import("./release-log-check.ts")).rememberSynced(ctx, entries, fetched);
}
