/**
 * Sync's release-log checks against the lock (loaded only when a lock entry records a log or a
 * fetched source has one; src/sets/release-log-hook.ts decides): the lock's recorded proofs,
 * the fetched source's log, and what is remembered after the sync committed.
 */
import type { Context } from "../core/context.ts";
import { logInconsistent } from "../tlog/errors.ts";
import { readReleaseLog, summary, type BelievedHead } from "../tlog/log-dir.ts";
import { openCheckpoint } from "../tlog/checkpoint.ts";
import { parseVerifier } from "../tlog/note.ts";
import { checkRelease, logSignerMismatch, verifyEvidence, type CheckedRelease } from "../store/release-log-check.ts";
import { parseReleaseLine } from "../tlog/releases.ts";
import { readReleaseLogState, rememberVerified } from "../store/release-log-state.ts";
import type { LockEntry } from "../store/plugins-lock-schema.ts";

/**
 * `sync` (also `--offline`): every lock entry that records log evidence is checked from the
 * lock alone before anything is fetched or written: the proof shows the entry's name, version
 * and integrity in the recorded checkpoint, signed by the recorded key, and the line's signer
 * is the one the entry expects. Where this user's gjc
 * remembers a head of the same log, the key must be the same and a checkpoint of the same
 * size must have the same root (a checkpoint of another size cannot be compared offline).
 */
export function verifyLockedReleases(ctx: Context, entries: readonly LockEntry[]): void {
  const heads = readReleaseLogState(ctx).heads;
  for (const e of entries) {
    if (!e.log) continue;
    verifyEvidence(e.log, { name: e.name, version: e.version, digest: e.integrity });
    // The line names who signed the release: the lock must expect that key, or no signature for "-".
    const logged = parseReleaseLine(e.log.leaf, "recorded release").signer;
    if (logged !== e.signer)
      throw logSignerMismatch(
        e,
        e.log.origin,
        logged,
        e.signer,
        e.signer === undefined ? "the lock expects it unsigned" : `the lock expects it signed by ${e.signer}`,
      );
    const held = heads[e.log.origin];
    if (held === undefined) continue;
    const checkpoint = openCheckpoint(
      e.log.checkpoint,
      parseVerifier(e.log.key, "recorded log key"),
      e.log.origin,
      "recorded checkpoint",
    );
    const presented = summary(checkpoint);
    const believed = { origin: held.origin, size: held.size, root: held.root };
    if (held.key !== e.log.key)
      throw logInconsistent(
        `the lock records another note key for it (${e.log.key}, remembered ${held.key})`,
        believed,
        presented,
        { name: e.name },
      );
    if (held.size === presented.size && held.root !== presented.root)
      throw logInconsistent(
        `the lock's checkpoint for ${e.name} ${e.version} forks from the one remembered (same size, another root)`,
        believed,
        presented,
        { name: e.name },
      );
  }
}

/** Sync fetching from a source: the fetched bundle root's log must hold the entry. */
export function checkFetchedRelease(ctx: Context, logDir: string, e: LockEntry): CheckedRelease {
  return checkRelease(ctx, readReleaseLog(logDir), { name: e.name, version: e.version, digest: e.integrity });
}

/**
 * After a sync committed: the heads verified from fetched logs, and the lock's evidence (so the
 * next `gjc plugin lock` keeps it). A lock's checkpoint becomes the remembered head of its log
 * only when none is held: a head of another size cannot be shown consistent without the log.
 */
export function rememberSynced(ctx: Context, entries: readonly LockEntry[], fetched: readonly CheckedRelease[]): void {
  const heads: BelievedHead[] = fetched.map((c) => c.head);
  const evidence = fetched.map((c) => ({ digest: c.digest, evidence: c.evidence }));
  const held = new Set(Object.keys(readReleaseLogState(ctx).heads));
  for (const e of entries) {
    if (!e.log || fetched.some((c) => c.digest === e.integrity)) continue;
    evidence.push({ digest: e.integrity, evidence: e.log });
    if (held.has(e.log.origin) || heads.some((h) => h.origin === e.log!.origin)) continue;
    const checkpoint = openCheckpoint(
      e.log.checkpoint,
      parseVerifier(e.log.key, "recorded log key"),
      e.log.origin,
      "recorded checkpoint",
    );
    heads.push({
      origin: e.log.origin,
      key: e.log.key,
      size: checkpoint.size,
      root: summary(checkpoint).root,
      checkpoint: e.log.checkpoint,
    });
  }
  rememberVerified(ctx, heads, evidence);
}
