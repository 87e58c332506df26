import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { relativePathProblem, walkInside } from "../bundle/path-safety.ts";
import type { Context } from "../core/context.ts";
import { sourceError } from "./errors.ts";
import { requireManifest } from "./manifest-check.ts";
import { runGit } from "./run-git.ts";
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
 * Shallow-fetches one commit into a fresh scratch dir with the user's git. A branch or tag
 * is cloned with `--depth 1`; a full-SHA pin is fetched by id (`git init` + `fetch <sha>`,
 * which the server must allow: GitHub does, and so does any git >= 2.26 speaking protocol v2;
 * a protocol v0 server needs `uploadpack.allowReachableSHA1InWant` or `allowAnySHA1InWant`)
 * and verified after
 * checkout. `.git` is removed afterwards, so nothing of git's is collected.
 */
export async function fetchGit(ctx: Context, target: GitTarget, opts: FetchOptions): Promise<GitCheckout> {
  if (target.subpath !== undefined) {
    const problem = relativePathProblem(target.subpath);
    if (problem) throw sourceError("invalid_source", `The subpath ${JSON.stringify(target.subpath)} ${problem}.`, "Give a relative path inside the repository, like packs/my-plugin.");
  }
  const timeoutMs = opts.gitTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  mkdirSync(opts.scratchRoot, { recursive: true });
  const scratch = mkdtempSync(join(opts.scratchRoot, "fetch-"));
  const checkout = join(scratch, "checkout");
  try {
    opts.onProgress?.(`Fetching ${target.display}${target.pin ? ` at ${target.pin.slice(0, 12)}` : target.ref ? ` (${target.ref})` : ""} with git…`);
    if (target.pin) {
      await runGit(ctx, ["init", "-q", "--", checkout], { cwd: scratch, timeoutMs, action: "init" });
      await runGit(ctx, ["fetch", "-q", "--depth", "1", "--no-tags", "--no-recurse-submodules", "--", target.url, target.pin], { cwd: checkout, timeoutMs, action: `fetch of ${target.display} at ${target.pin}` });
      await runGit(ctx, ["checkout", "-q", "--detach", "FETCH_HEAD"], { cwd: checkout, timeoutMs, action: "checkout" });
    } else {
      const branch = target.ref !== undefined ? [`--branch=${target.ref}`] : [];
      await runGit(ctx, ["clone", "-q", "--depth", "1", "--single-branch", "--no-recurse-submodules", "--no-local", ...branch, "--", target.url, checkout], {
        cwd: scratch,
        timeoutMs,
        action: `clone of ${target.display}${target.ref !== undefined ? ` (${target.ref})` : ""}`,
      });
    }
    const sha = (await runGit(ctx, ["rev-parse", "--verify", "HEAD^{commit}"], { cwd: checkout, timeoutMs, action: "rev-parse" })).stdout.trim().toLowerCase();
    if (target.pin && sha !== target.pin) {
      throw sourceError("hash_mismatch", `git checked out ${sha}, not the pinned commit ${target.pin}.`, "The remote answered with a different commit; nothing was installed.", { expected: target.pin, actual: sha });
    }
    rmSync(join(checkout, ".git"), { recursive: true, force: true });
    const dir = target.subpath === undefined ? checkout : selectSubpath(checkout, target.subpath);
    requireManifest(dir, opts.manifestNames, target.subpath === undefined ? "the repository root" : target.subpath);
    return { scratch, dir, sha };
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

/** The subpath must be a directory inside the checkout reached without any symlink. */
function selectSubpath(checkout: string, subpath: string): string {
  const walk = walkInside(checkout, subpath, "dir");
  if (!walk.ok) {
    if (walk.reason === "symlink") {
      throw sourceError("security_policy", `The path ${JSON.stringify(subpath)} goes through a symbolic link (${walk.at}) in the repository.`, "Point at the real directory; links are never followed out of a checkout.");
    }
    throw sourceError("missing_file", `The repository has no directory ${JSON.stringify(subpath)} (${walk.reason} at ${walk.at}).`, "Check the path in the URL or catalog entry.");
  }
  return join(checkout, subpath);
}
