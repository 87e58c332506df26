/**
 * A release log as plain files in one directory (by convention `gjc-log/`):
 *
 *   log-key.pub   the note verifier key, one line: <origin>+<key id>+<base64 key>
 *   checkpoint    the newest tree head, a C2SP checkpoint signed by that key
 *   releases      every release, one line each, in log order (src/tlog/releases.ts)
 *
 * The private half of the key is never here. Reading is bounded and never follows a link;
 * every check that needs only the directory is made before anything is believed: the
 * checkpoint's signature, the tree recomputed from the releases against it, and no name and
 * version published twice.
 */
import { join } from "node:path";
import { readRegularFile } from "../bundle/read-file.ts";
import { isGjcError } from "../core/errors.ts";
import { openCheckpoint, type Checkpoint } from "./checkpoint.ts";
import { invalidLog, logInconsistent, type TreeHeadSummary } from "./errors.ts";
import { LOG_FILES } from "./layout.ts";
import { consistencyProof, inclusionProof, treeRoot, verifyConsistency, sameHash, type Hash } from "./merkle.ts";
import { parseVerifier, toBase64, type NoteVerifier } from "./note.ts";
import { parseReleases, releaseLeaf, releaseLine, type Release } from "./releases.ts";

const MAX_KEY_BYTES = 4096;
const MAX_CHECKPOINT_BYTES = 64 * 1024;
/** About 100,000 releases: far more than any publisher's log, small enough to hold in memory. */
const MAX_RELEASES_BYTES = 32 * 1024 * 1024;

export interface ReleaseLog {
  dir: string;
  verifier: NoteVerifier;
  origin: string;
  checkpoint: Checkpoint;
  /** The signed checkpoint note as the file holds it. */
  checkpointNote: string;
  releases: Release[];
  leaves: Hash[];
}

export function summary(c: Checkpoint): TreeHeadSummary {
  return { origin: c.origin, size: c.size, root: toBase64(c.root) };
}

function readText(dir: string, name: string, max: number): string {
  const path = join(dir, name);
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(path, max, path).bytes;
  } catch (error) {
    if (isGjcError(error)) throw invalidLog(name, error.message.replace(/\.$/, ""), { path });
    throw error;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw invalidLog(name, "it is not UTF-8", { path });
  }
}

/** The key file's one line. */
export function readVerifier(dir: string): NoteVerifier {
  const text = readText(dir, LOG_FILES.key, MAX_KEY_BYTES);
  if (!text.endsWith("\n") || text.indexOf("\n") !== text.length - 1)
    throw invalidLog(LOG_FILES.key, "it is not exactly one line ending in a newline");
  return parseVerifier(text.slice(0, -1), LOG_FILES.key);
}

/**
 * Reads and checks a log directory on its own: the checkpoint verifies under the log's key,
 * its origin is the key's name, the releases file is exactly the tree the checkpoint signs,
 * and no name and version appears twice.
 */
export function readReleaseLog(dir: string, o: { allowUnsigned?: boolean } = {}): ReleaseLog & { unsigned?: Release } {
  const verifier = readVerifier(dir);
  const origin = verifier.name;
  const checkpointNote = readText(dir, LOG_FILES.checkpoint, MAX_CHECKPOINT_BYTES);
  const checkpoint = openCheckpoint(checkpointNote, verifier, origin, LOG_FILES.checkpoint);
  const releases = parseReleases(readText(dir, LOG_FILES.releases, MAX_RELEASES_BYTES), LOG_FILES.releases);
  const leaves = releases.map(releaseLeaf);
  // An append interrupted between its two writes leaves one release the checkpoint does not
  // sign yet; only `append` (finishing exactly that release) may read past it.
  if (o.allowUnsigned && releases.length === checkpoint.size + 1) {
    const signed: ReleaseLog = {
      dir,
      verifier,
      origin,
      checkpoint,
      checkpointNote,
      releases: releases.slice(0, -1),
      leaves: leaves.slice(0, -1),
    };
    checkTree(signed);
    return { ...signed, unsigned: releases[releases.length - 1] };
  }
  const log: ReleaseLog = { dir, verifier, origin, checkpoint, checkpointNote, releases, leaves };
  checkTree(log);
  return log;
}

/** The signed checkpoint is what is believed here; the releases file's own tree is what is presented. */
function checkTree(log: ReleaseLog): void {
  const signed = summary(log.checkpoint);
  const root = treeRoot(log.leaves);
  const recomputed: TreeHeadSummary = { origin: log.origin, size: log.releases.length, root: toBase64(root) };
  if (log.releases.length !== log.checkpoint.size) {
    const fewer = log.releases.length < log.checkpoint.size;
    throw logInconsistent(
      `the releases file holds ${log.releases.length} releases, the signed checkpoint ${log.checkpoint.size} (${fewer ? "a release was removed" : "a release was added without a new checkpoint"})`,
      signed,
      recomputed,
    );
  }
  if (!sameHash(root, log.checkpoint.root)) {
    throw logInconsistent(
      "the releases file is not the tree the checkpoint signs (a release was changed, removed or reordered)",
      signed,
      recomputed,
    );
  }
  const seen = new Map<string, number>();
  for (const [i, r] of log.releases.entries()) {
    const key = `${r.name} ${r.version}`;
    const first = seen.get(key);
    if (first !== undefined) {
      const again = log.releases[first].digest === r.digest;
      throw logInconsistent(
        again
          ? `${r.name} ${r.version} is published twice (releases ${first + 1} and ${i + 1})`
          : `${r.name} ${r.version} is published with a second digest (${log.releases[first].digest} at release ${first + 1}, ${r.digest} at release ${i + 1})`,
        signed,
        signed,
        { name: r.name, version: r.version, digests: [log.releases[first].digest, r.digest] },
      );
    }
    seen.set(key, i);
  }
}

/** What a client keeps of a checkpoint it verified: enough to demand consistency from it later. */
export interface BelievedHead {
  origin: string;
  /** The log's verifier key when the head was verified. */
  key: string;
  size: number;
  root: string;
  /** The signed checkpoint note. */
  checkpoint: string;
}

/**
 * Holds a log to a tree head believed before: the same key, and a consistency proof from the
 * believed head to the log's (computed from the releases, verified as a client would). A log
 * that shrank, forked or changed its key is `log_inconsistent`.
 */
export function checkExtends(log: ReleaseLog, believed: BelievedHead): { proof: string[] } {
  const presented = summary(log.checkpoint);
  const was: TreeHeadSummary = { origin: believed.origin, size: believed.size, root: believed.root };
  if (believed.key !== log.verifier.text)
    throw logInconsistent(`its note key changed (believed ${believed.key}, now ${log.verifier.text})`, was, presented);
  if (believed.size > log.checkpoint.size)
    throw logInconsistent(
      "it is shorter than the tree head seen before (releases were removed, or an old checkpoint is presented)",
      was,
      presented,
    );
  const proof = consistencyProof(log.leaves, believed.size, log.checkpoint.size);
  const oldRoot = new Uint8Array(Buffer.from(believed.root, "base64"));
  if (!verifyConsistency(believed.size, log.checkpoint.size, oldRoot, log.checkpoint.root, proof)) {
    throw logInconsistent(
      "it is not an extension of the tree head seen before (the log forked: a release seen before was removed, changed or reordered)",
      was,
      presented,
    );
  }
  return { proof: proof.map(toBase64) };
}

export function believedHead(log: ReleaseLog): BelievedHead {
  return {
    origin: log.origin,
    key: log.verifier.text,
    size: log.checkpoint.size,
    root: toBase64(log.checkpoint.root),
    checkpoint: log.checkpointNote,
  };
}

/** The inclusion proof of release `index` in the log's checkpoint. */
export function inclusionOf(log: ReleaseLog, index: number): { index: number; leaf: string; proof: string[] } {
  return { index, leaf: releaseLine(log.releases[index]), proof: inclusionProof(log.leaves, index).map(toBase64) };
}
