/**
 * The client side of release logs, the checks themselves (loaded only when a source or a lock
 * has a log; src/store/release-log-hook.ts and src/sets/release-log-hook.ts decide): a release
 * installs only when its log holds it, at a checkpoint that extends the one this user saw before.
 */
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import {
  believedHead,
  checkExtends,
  inclusionOf,
  summary,
  type BelievedHead,
  type ReleaseLog,
} from "../tlog/log-dir.ts";
import { openCheckpoint } from "../tlog/checkpoint.ts";
import { verifyInclusion } from "../tlog/merkle.ts";
import { parseVerifier } from "../tlog/note.ts";
import { parseReleaseLine, releaseLeaf } from "../tlog/releases.ts";
import { readReleaseLogState, type LogEvidence } from "./release-log-state.ts";

export interface CheckedRelease {
  head: BelievedHead;
  digest: string;
  /** The fingerprint of the key the log line says signed the release (absent: "-", unsigned). */
  signer?: string;
  evidence: LogEvidence;
  firstSeen: boolean;
}

function notLogged(
  log: ReleaseLog,
  r: { name: string; version: string; digest: string },
  published?: string,
): GjcError {
  const head = summary(log.checkpoint);
  return new GjcError({
    code: "release_not_logged",
    message:
      published === undefined
        ? `${r.name} ${r.version} (${r.digest}) is not in the release log ${log.origin} (${head.size} releases). Nothing was written.`
        : `${r.name} ${r.version} is in the release log ${log.origin} with digest ${published}, but the source holds ${r.digest}. Nothing was written.`,
    hint: "A source with a release log installs only what its log published. The publisher must append this release (gjc plugin log append); if they did not make these bytes, someone else did.",
    details: {
      origin: log.origin,
      name: r.name,
      version: r.version,
      digest: r.digest,
      ...(published !== undefined ? { published } : {}),
      checkpoint: head,
    },
    exit: ExitCode.refused,
  });
}

/**
 * Holds `release` to `log`: the log extends the head this user believes for its origin (if
 * any), and holds exactly this name, version and digest; returns the inclusion proof.
 */
export function checkRelease(
  ctx: Context,
  log: ReleaseLog,
  release: { name: string; version: string; digest: string },
): CheckedRelease {
  const believed = readReleaseLogState(ctx).heads[log.origin];
  if (believed !== undefined) checkExtends(log, believed);
  const index = log.releases.findIndex((r) => r.name === release.name && r.version === release.version);
  if (index < 0) throw notLogged(log, release);
  if (log.releases[index].digest !== release.digest) throw notLogged(log, release, log.releases[index].digest);
  const inclusion = inclusionOf(log, index);
  const evidence: LogEvidence = {
    origin: log.origin,
    key: log.verifier.text,
    checkpoint: log.checkpointNote,
    ...inclusion,
  };
  verifyEvidence(evidence, release);
  const { signer } = log.releases[index];
  return {
    head: believedHead(log),
    digest: release.digest,
    ...(signer !== undefined ? { signer } : {}),
    evidence,
    firstSeen: believed === undefined,
  };
}

/**
 * Checks a recorded proof on its own (what `sync --offline` does with the lock): the checkpoint
 * verifies under the recorded key, the leaf is this release, and the audit path leads from the
 * leaf to the checkpoint's root.
 */
export function verifyEvidence(e: LogEvidence, release: { name: string; version: string; digest: string }): void {
  const checkpoint = openCheckpoint(
    e.checkpoint,
    parseVerifier(e.key, "recorded log key"),
    e.origin,
    "recorded checkpoint",
  );
  const leaf = parseReleaseLine(e.leaf, "recorded release");
  const head = summary(checkpoint);
  const proof = e.proof.map((p) => new Uint8Array(Buffer.from(p, "base64")));
  if (
    leaf.name !== release.name ||
    leaf.version !== release.version ||
    leaf.digest !== release.digest ||
    !verifyInclusion(releaseLeaf(leaf), e.index, checkpoint.size, proof, checkpoint.root)
  ) {
    throw new GjcError({
      code: "log_inconsistent",
      message: `The recorded release-log proof for ${release.name} ${release.version} does not show ${release.digest} in ${e.origin} at ${head.size} releases (root ${head.root}). Nothing was written.`,
      hint: "The lock's log evidence was edited or belongs to other content. Restore the lock from version control, or write it again with gjc plugin lock where the bundle was installed from its logged source; ask who changed it.",
      details: {
        problem: "the recorded inclusion proof does not verify",
        believed: head,
        presented: head,
        name: release.name,
        version: release.version,
        digest: release.digest,
      },
      exit: ExitCode.refused,
    });
  }
}

/**
 * A release whose log line names another signer than the bytes (or the lock) carry: the log is
 * the publisher's statement of who signed it. `found` says what was found instead, and where.
 */
export function logSignerMismatch(
  r: { name: string; version: string },
  origin: string,
  logged: string | undefined,
  foundSigner: string | undefined,
  found: string,
): GjcError {
  const said = logged === undefined ? "as unsigned" : `as signed by ${logged}`;
  return new GjcError({
    code: "log_signer_mismatch",
    message: `The release log ${origin} published ${r.name} ${r.version} ${said}, but ${found}. Nothing was written.`,
    hint:
      logged === undefined
        ? "The publisher's log says this release was not signed: someone else signed these bytes. Ask the publisher which key signs their releases."
        : "The publisher's log says which key signed this release: a missing or different signature means the bytes were re-signed or stripped on the way. Install from the publisher's own source.",
    details: { origin, name: r.name, version: r.version, logged: logged ?? null, found: foundSigner ?? null },
    exit: ExitCode.refused,
  });
}

/** The bytes a source served must carry the key its log line names (none for "-"). */
export function holdSourceSigner(
  r: { name: string; version: string },
  checked: CheckedRelease,
  signer: string | undefined,
): void {
  if (checked.signer === signer) return;
  throw logSignerMismatch(
    r,
    checked.head.origin,
    checked.signer,
    signer,
    signer === undefined ? "the source carries no signature" : `the source is signed by ${signer}`,
  );
}
