/**
 * `gjc plugin log init|append|verify|monitor <dir>`: a publisher's release log (the layout is
 * src/tlog/log-dir.ts). The note key's private half lives outside the log, in a 0600 file
 * (`--key-file`, by default `~/.gjc/log-keys/<key id>.key`).
 */
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readdirSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import type { Context } from "../core/context.ts";
import { GjcError, isGjcError, usageError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { openCheckpoint, signCheckpoint } from "../tlog/checkpoint.ts";
import { type TreeHeadSummary } from "../tlog/errors.ts";
import { LOG_FILES } from "../tlog/layout.ts";
import { checkExtends, readReleaseLog, summary } from "../tlog/log-dir.ts";
import { EMPTY_ROOT, treeRoot } from "../tlog/merkle.ts";
import { generateSigner, parseSigner, signerKeyText, validKeyName, type NoteSigner } from "../tlog/note.ts";
import { releaseLeaf, releaseLine, releaseProblem, releasesText, sameRelease, type Release } from "../tlog/releases.ts";
import { readReleaseLogState } from "../store/release-log-state.ts";

const MAX_KEY_FILE_BYTES = 4096;

export function defaultKeyFile(ctx: Context, keyId: number): string {
  return join(ctx.home, ".gjc", "log-keys", `${keyId.toString(16).padStart(8, "0")}.key`);
}

function readSignerFile(path: string): NoteSigner {
  let text: string;
  try {
    const st = lstatSync(path);
    // A link is refused by the read below; the mode of a regular file must keep others out.
    if (!st.isSymbolicLink() && typeof process.getuid === "function" && (st.mode & 0o077) !== 0) {
      throw new GjcError({
        code: "security_policy",
        message: `The log key ${path} may be read by other users (mode ${(st.mode & 0o777).toString(8)}).`,
        hint: `chmod 600 ${path}; if others could read it, make a new log.`,
        exit: ExitCode.refused,
      });
    }
    text = new TextDecoder().decode(readRegularFile(path, MAX_KEY_FILE_BYTES, path).bytes);
  } catch (error) {
    if (isGjcError(error)) throw error;
    throw new GjcError({
      code: "missing_file",
      message: `The log key ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}).`,
      hint: "Pass the key made by gjc plugin log init with --key-file.",
      exit: ExitCode.failed,
    });
  }
  return parseSigner(text.replace(/\n$/, ""), `key file ${path}`);
}

/** Writes a new private key file, 0600, never over an existing file. */
function writeSignerFile(path: string, signer: NoteSigner): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, `${signerKeyText(signer)}\n`);
  } finally {
    closeSync(fd);
  }
}

export interface LogInitResult {
  dir: string;
  origin: string;
  key: string;
  keyFile: string;
  keyCreated: boolean;
  checkpoint: TreeHeadSummary;
}

/**
 * `init`: an empty log (size 0) in a new or empty directory. The key comes from `keyFile`
 * when that file exists; otherwise a new one is made there (or at the default path). The
 * origin is the key's name; a given origin must match an existing key's.
 */
export function initLog(ctx: Context, o: { dir: string; keyFile?: string; origin?: string }): LogInitResult {
  const dir = resolve(ctx.cwd, o.dir);
  if (existsSync(dir)) {
    const st = lstatSync(dir);
    if (!st.isDirectory())
      throw usageError(
        `${dir} exists and is not a directory.`,
        "Name a new or empty directory for the log.",
        "log_exists",
      );
    if (readdirSync(dir).length > 0)
      throw new GjcError({
        code: "log_exists",
        message: `${dir} is not empty${existsSync(join(dir, LOG_FILES.key)) ? " (it already holds a release log)" : ""}; nothing was written.`,
        hint: "A log is made once; append releases to it with gjc plugin log append.",
        exit: ExitCode.failed,
      });
  }
  if (o.origin !== undefined && !validKeyName(o.origin))
    throw usageError(
      `The origin "${o.origin}" must be non-empty, without spaces, control characters or "+".`,
      "Use a schema-less URL such as example.com/acme/plugins.",
      "invalid_option_value",
    );
  const keyFile = o.keyFile !== undefined ? resolve(ctx.cwd, o.keyFile) : undefined;
  let signer: NoteSigner;
  let keyCreated = false;
  if (keyFile !== undefined && existsSync(keyFile)) {
    signer = readSignerFile(keyFile);
    if (o.origin !== undefined && o.origin !== signer.name)
      throw usageError(
        `The key in ${keyFile} is named "${signer.name}", not "${o.origin}"; a log's origin is its key's name.`,
        "Drop --origin, or make a new key for the new origin.",
        "invalid_option_value",
      );
  } else {
    signer = generateSigner(o.origin ?? `gjc-log/${crypto.getRandomValues(new Uint8Array(8)).toHex()}`);
    keyCreated = true;
  }
  const finalKeyFile = keyFile ?? defaultKeyFile(ctx, signer.keyId);
  const checkpoint = { origin: signer.name, size: 0, root: EMPTY_ROOT, extensions: [] };
  // The key first: a log whose key was lost can never be appended to.
  if (keyCreated) writeSignerFile(finalKeyFile, signer);
  mkdirSync(dir, { recursive: true });
  writeFileAtomic(join(dir, LOG_FILES.key), `${signer.text}\n`);
  writeFileAtomic(join(dir, LOG_FILES.releases), "");
  writeFileAtomic(join(dir, LOG_FILES.checkpoint), signCheckpoint(checkpoint, signer));
  return {
    dir,
    origin: signer.name,
    key: signer.text,
    keyFile: finalKeyFile,
    keyCreated,
    checkpoint: summary(checkpoint),
  };
}

/**
 * A bundle as install would fetch and judge it (directory, archive, git URL): its name, version
 * and digest, and the key that signed it when it carries a signature (checked as install
 * checks it, so a line never names a signature that would not verify).
 */
async function judgeSource(
  ctx: Context,
  spec: string,
): Promise<{ name: string; version: string; integrity: string; signer?: string }> {
  const [{ fetchSpec }, { judgeBundle }, { locateSignature }, { checkBundleSignature }] = await Promise.all([
    import("../install/fetch-source.ts"),
    import("../store/bundle-digest.ts"),
    import("../signing/locate.ts"),
    import("../signing/check.ts"),
  ]);
  const fetched = await fetchSpec(ctx, spec, (m) => ctx.log.progress(m));
  try {
    const judged = await judgeBundle(fetched.dir);
    const signature = locateSignature(fetched);
    if (signature === undefined) return judged;
    const check = await checkBundleSignature(ctx, {
      name: judged.name,
      integrity: judged.integrity,
      signature,
      scope: "user",
    });
    return { ...judged, signer: check.signer?.fingerprint };
  } finally {
    await fetched.cleanup();
  }
}

/** An explicit --signer must be the bundle's own signature: a line naming another key could never be installed. */
function signerDisagrees(given: string, found: string | undefined): GjcError {
  return usageError(
    found === undefined
      ? `--signer ${given} names a signer, but the bundle carries no signature; nothing was written.`
      : `--signer ${given} is not the key that signed the bundle (${found}); nothing was written.`,
    found === undefined
      ? "Sign the bundle first (gjc plugin sign), then append it: the signer is taken from its signature."
      : "Leave out --signer when appending a bundle: the signer is taken from its signature.",
    "invalid_option_value",
  );
}

export interface LogAppendResult {
  dir: string;
  origin: string;
  status: "appended" | "unchanged";
  release: Release & { index: number };
  checkpoint: TreeHeadSummary;
}

export interface AppendRequest {
  dir: string;
  /** A bundle directory, archive or other source: name, version and digest are computed from it. */
  bundle?: string;
  name?: string;
  version?: string;
  digest?: string;
  signer?: string;
  keyFile?: string;
}

/**
 * `append`: one release more, and a new checkpoint signed over the whole tree. The log is
 * verified first; a name and version already published is a no-op with the same digest and
 * signer, refused otherwise (a version is published once).
 */
export async function appendRelease(ctx: Context, o: AppendRequest): Promise<LogAppendResult> {
  const dir = resolve(ctx.cwd, o.dir);
  let release: Release;
  if (o.bundle !== undefined) {
    if (o.name !== undefined || o.version !== undefined || o.digest !== undefined)
      throw usageError(
        "Give a bundle, or --name, --version and --digest, not both.",
        "With a bundle, its manifest gives the name and version and gjc computes the digest.",
      );
    const d = await judgeSource(ctx, o.bundle);
    if (o.signer !== undefined && o.signer !== d.signer) throw signerDisagrees(o.signer, d.signer);
    release = {
      name: d.name,
      version: d.version,
      digest: d.integrity,
      ...(d.signer !== undefined ? { signer: d.signer } : {}),
    };
  } else {
    if (o.name === undefined || o.version === undefined || o.digest === undefined)
      throw usageError(
        "append needs a bundle, or all of --name, --version and --digest.",
        "gjc plugin log append gjc-log ./my-bundle, or gjc plugin log append gjc-log --name x --version 1.0.0 --digest sha256:<hex>.",
      );
    release = {
      name: o.name,
      version: o.version,
      digest: o.digest,
      ...(o.signer !== undefined ? { signer: o.signer } : {}),
    };
  }
  const problem = releaseProblem(release);
  if (problem !== undefined)
    throw usageError(
      `This release cannot be logged: ${problem}.`,
      "Check --name, --version, --digest and --signer.",
      "invalid_option_value",
    );
  const log = readReleaseLog(dir, { allowUnsigned: true });
  if (log.unsigned !== undefined && !sameRelease(log.unsigned, release)) {
    throw new GjcError({
      code: "log_inconsistent",
      message: `The release log ${log.origin} holds a release its checkpoint does not sign yet (${releaseLine(log.unsigned)}), left by an interrupted append; nothing was written.`,
      hint: "Append that same release again to finish it, or restore the releases file from your history.",
      details: {
        problem: "an unsigned release follows the checkpoint",
        believed: summary(log.checkpoint),
        presented: { ...summary(log.checkpoint), size: log.checkpoint.size + 1 },
        unsigned: log.unsigned,
      },
      exit: ExitCode.refused,
    });
  }
  const signer = readSignerFile(
    o.keyFile !== undefined ? resolve(ctx.cwd, o.keyFile) : defaultKeyFile(ctx, log.verifier.keyId),
  );
  if (signer.text !== log.verifier.text)
    throw new GjcError({
      code: "log_key_mismatch",
      message: `The key ${signer.text} is not this log's key (${log.verifier.text}); nothing was written.`,
      hint: "Pass the key gjc plugin log init made for this log with --key-file.",
      exit: ExitCode.refused,
    });
  const at = log.releases.findIndex((r) => r.name === release.name && r.version === release.version);
  if (at >= 0) {
    const had = log.releases[at];
    if (had.digest === release.digest && had.signer === release.signer)
      return {
        dir,
        origin: log.origin,
        status: "unchanged",
        release: { ...had, index: at },
        checkpoint: summary(log.checkpoint),
      };
    throw new GjcError({
      code: "release_exists",
      message: `${release.name} ${release.version} is already in the log (release ${at + 1}, ${had.digest}${had.signer ? ` signed by ${had.signer}` : ""}); a version is published once. Nothing was written.`,
      hint: "Publish the new content under a new version.",
      details: { name: release.name, version: release.version, logged: had, requested: release },
      exit: ExitCode.failed,
    });
  }
  const releases = [...log.releases, release];
  const checkpoint = {
    origin: log.origin,
    size: releases.length,
    root: treeRoot([...log.leaves, releaseLeaf(release)]),
    extensions: [],
  };
  // The releases first: a crash between the two writes leaves one release more than the old
  // checkpoint signs, which verify names; the checkpoint never signs a tree that is not there.
  writeFileAtomic(join(dir, LOG_FILES.releases), releasesText(releases));
  writeFileAtomic(join(dir, LOG_FILES.checkpoint), signCheckpoint(checkpoint, signer));
  return {
    dir,
    origin: log.origin,
    status: "appended",
    release: { ...release, index: releases.length - 1 },
    checkpoint: summary(checkpoint),
  };
}

export interface LogVerifyResult {
  dir: string;
  origin: string;
  key: string;
  checkpoint: TreeHeadSummary;
  releases: number;
  /** The head this user's gjc remembers for the origin, which the log was checked to extend. */
  remembered?: TreeHeadSummary;
  /** The older checkpoint given with --against, which the log was checked to extend. */
  against?: TreeHeadSummary;
}

/**
 * `verify`: everything recomputed from the files, then held to the remembered head and to an
 * older signed checkpoint the caller kept (`against`), both read only.
 */
export function verifyLog(ctx: Context, o: { dir: string; against?: string }): LogVerifyResult {
  const dir = resolve(ctx.cwd, o.dir);
  const log = readReleaseLog(dir);
  const held = readReleaseLogState(ctx).heads[log.origin];
  if (held !== undefined) checkExtends(log, held);
  let against: TreeHeadSummary | undefined;
  if (o.against !== undefined) {
    const path = resolve(ctx.cwd, o.against);
    let note: string;
    try {
      note = new TextDecoder("utf-8", { fatal: true }).decode(readRegularFile(path, 64 * 1024, path).bytes);
    } catch (error) {
      throw isGjcError(error)
        ? error
        : usageError(
            `--against ${path} is not a UTF-8 text file.`,
            "Pass a checkpoint file the log wrote before.",
            "invalid_option_value",
          );
    }
    const old = openCheckpoint(note, log.verifier, log.origin, `checkpoint ${path}`);
    against = summary(old);
    checkExtends(log, {
      origin: old.origin,
      key: log.verifier.text,
      size: old.size,
      root: against.root,
      checkpoint: note,
    });
  }
  return {
    dir,
    origin: log.origin,
    key: log.verifier.text,
    checkpoint: summary(log.checkpoint),
    releases: log.releases.length,
    ...(held !== undefined ? { remembered: { origin: held.origin, size: held.size, root: held.root } } : {}),
    ...(against !== undefined ? { against } : {}),
  };
}

export interface LogMonitorResult {
  dir: string;
  origin: string;
  checkpoint: TreeHeadSummary;
  keys: string[];
  /** Releases signed by none of `keys`, unsigned ones included. */
  releases: (Release & { index: number })[];
}

/** `monitor`: the releases not signed by one of the publisher's own keys. */
export function monitorLog(ctx: Context, o: { dir: string; keys: string[] }): LogMonitorResult {
  for (const k of o.keys)
    if (!/^SHA256:[A-Za-z0-9+/]{1,128}$/.test(k))
      throw usageError(
        `--key "${k}" is not an SSH key fingerprint (SHA256:<base64>).`,
        "ssh-keygen -lf <key>.pub prints it.",
        "invalid_option_value",
      );
  const result = verifyLog(ctx, o);
  const log = readReleaseLog(result.dir);
  const releases = log.releases.flatMap((r, index) =>
    r.signer !== undefined && o.keys.includes(r.signer) ? [] : [{ ...r, index }],
  );
  return { dir: result.dir, origin: log.origin, checkpoint: result.checkpoint, keys: [...o.keys], releases };
}
