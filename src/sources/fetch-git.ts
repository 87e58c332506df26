import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { relativePathProblem, walkInside } from "../bundle/path-safety.ts";
import type { Context } from "../core/context.ts";
import { sourceError } from "./errors.ts";
import { requireManifest } from "./manifest-check.ts";
import { readCommitTree } from "./git-tree.ts";
import { judgeGitRemote, pinnedRemote } from "./git-remote.ts";
import { runGit } from "./run-git.ts";
import { makeScratch } from "./scratch.ts";
import { writeEntries } from "./tar/write-entries.ts";
import type { FetchOptions } from "./types.ts";

export interface GitTarget {
  /** The URL handed to git (may hold credentials; never stored or printed). */
  url: string;
  ref?: string;
  pin?: string;
  subpath?: string;
  /** Redacted, for messages. */
  display: string;
}

export interface GitCheckout {
  scratch: string;
  /** The bundle root inside the checkout (subpath applied). */
  dir: string;
  sha: string;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Shallow-fetches one commit into a fresh bare repository in scratch, then writes that commit's
 * files from the object store (src/sources/git-tree.ts): nothing is ever checked out, so no
 * filter driver, hook or fsmonitor the repository or the user's config names can run. A branch
 * or tag (or the remote HEAD) is fetched by name with `--depth 1`; a full-SHA pin is fetched by
 * id (which the server must allow: GitHub does, and so does any git >= 2.26 speaking protocol
 * v2; a protocol v0 server needs `uploadpack.allowReachableSHA1InWant` or `allowAnySHA1InWant`)
 * and verified. The bare repository is removed afterwards, so nothing of git's is collected.
 */
export async function fetchGit(ctx: Context, target: GitTarget, opts: FetchOptions): Promise<GitCheckout> {
  if (target.subpath !== undefined) {
    const problem = relativePathProblem(target.subpath);
    if (problem)
      throw sourceError(
        "invalid_source",
        `The subpath ${JSON.stringify(target.subpath)} ${problem}.`,
        "Give a relative path inside the repository, like packs/my-plugin.",
      );
  }
  // Judged before git or any scratch exists: a refused literal host starts nothing.
  const https = judgeGitRemote(target.url);
  const timeoutMs = opts.gitTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const scratch = makeScratch(opts.scratchRoot);
  const gitDir = join(scratch, "repo.git");
  const checkout = join(scratch, "checkout");
  try {
    opts.onProgress?.(
      `Fetching ${target.display}${target.pin ? ` at ${target.pin.slice(0, 12)}` : target.ref ? ` (${target.ref})` : ""} with git…`,
    );
    await runGit(ctx, ["init", "-q", "--bare", "--", gitDir], { cwd: scratch, timeoutMs, action: "init" });
    const pin = https ? await remotePin(ctx, target.url, https, gitDir, timeoutMs, opts) : [];
    const want = target.pin ?? target.ref ?? "HEAD";
    await runGit(
      ctx,
      [
        ...pin,
        "fetch",
        "-q",
        "--depth",
        "1",
        "--no-tags",
        "--no-recurse-submodules",
        "--no-write-fetch-head",
        "--",
        target.url,
        `+${want}:refs/gjc/fetched`,
      ],
      {
        cwd: gitDir,
        timeoutMs,
        action: `fetch of ${target.display}${target.pin ? ` at ${target.pin}` : target.ref !== undefined ? ` (${target.ref})` : ""}`,
      },
    );
    const sha = (
      await runGit(ctx, ["rev-parse", "--verify", "refs/gjc/fetched^{commit}"], {
        cwd: gitDir,
        timeoutMs,
        action: "rev-parse",
      })
    ).stdout
      .trim()
      .toLowerCase();
    if (target.pin && sha !== target.pin) {
      throw sourceError(
        "hash_mismatch",
        `git fetched ${sha}, not the pinned commit ${target.pin}.`,
        "The remote answered with a different commit; nothing was installed.",
        { expected: target.pin, actual: sha },
      );
    }
    const entries = await readCommitTree(ctx, gitDir, sha, target.subpath, opts.limits, timeoutMs);
    rmSync(gitDir, { recursive: true, force: true });
    mkdirSync(checkout, { mode: 0o700 });
    writeEntries(checkout, entries);
    const dir = target.subpath === undefined ? checkout : selectSubpath(checkout, target.subpath);
    requireManifest(dir, opts.manifestNames, target.subpath === undefined ? "the repository root" : target.subpath);
    return { scratch, dir, sha };
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The DNS stage and the address pin for an https remote. The user's own `url.<base>.insteadOf`
 * rules can send the remote elsewhere (tests map github.com to local repositories, companies
 * map public names to mirrors): `ls-remote --get-url` asks git for the URL it will really use,
 * without any network. A remote the user's config rewrote is the user's own choice of
 * destination and is not resolved here (the literal URL was still judged above); an
 * unrewritten one is resolved, every answer judged, and git pinned to those answers.
 * It runs in our fresh bare repository, so no repository's config takes part.
 */
async function remotePin(
  ctx: Context,
  url: string,
  https: URL,
  gitDir: string,
  timeoutMs: number,
  opts: FetchOptions,
): Promise<string[]> {
  const effective = (
    await runGit(ctx, ["ls-remote", "--get-url", "--", url], { cwd: gitDir, timeoutMs, action: "ls-remote --get-url" })
  ).stdout.replace(/\n$/, "");
  if (effective !== url) return [];
  return pinnedRemote(https, opts.net);
}

/** The subpath must be a directory inside the checkout reached without any symlink. */
function selectSubpath(checkout: string, subpath: string): string {
  const walk = walkInside(checkout, subpath, "dir");
  if (!walk.ok) {
    if (walk.reason === "symlink") {
      throw sourceError(
        "security_policy",
        `The path ${JSON.stringify(subpath)} goes through a symbolic link (${walk.at}) in the repository.`,
        "Point at the real directory; links are never followed out of a checkout.",
      );
    }
    throw sourceError(
      "missing_file",
      `The repository has no directory ${JSON.stringify(subpath)} (${walk.reason} at ${walk.at}).`,
      "Check the path in the URL or catalog entry.",
    );
  }
  return join(checkout, subpath);
}
