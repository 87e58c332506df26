import { realpathSync, rmSync, statSync } from "node:fs";
import type { Context } from "../core/context.ts";
import { checkSpec } from "./check-spec.ts";
import { sourceError } from "./errors.ts";
import { fetchGit } from "./fetch-git.ts";
import { canonicalArchivePath, fetchTarball } from "./fetch-tarball.ts";
import { requireManifest } from "./manifest-check.ts";
import { redactUrl, storableUrl } from "./redact.ts";
import type { FetchedSource, FetchOptions, SourceRecord, SourceSpec } from "./types.ts";

/**
 * Fetches a classified source. Everything is judged before anything is written; a refusal
 * leaves nothing under `opts.scratchRoot`. The caller owns the result and calls `cleanup()`.
 */
export async function fetchSource(ctx: Context, spec: SourceSpec, opts: FetchOptions): Promise<FetchedSource> {
  if (opts.expectedSha256 !== undefined && spec.kind !== "tarball") {
    throw sourceError(
      "invalid_source",
      "An expected SHA-256 applies to archives only.",
      "Pin git sources with a full commit SHA instead.",
    );
  }
  if (opts.expectedSha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(opts.expectedSha256)) {
    throw sourceError(
      "invalid_source",
      "The expected SHA-256 must be 64 hexadecimal characters.",
      "Copy the archive's sha256 exactly.",
    );
  }
  checkSpec(spec);
  switch (spec.kind) {
    case "path":
      return fetchPath(spec.path, opts);
    case "tarball": {
      if (spec.location === "file") {
        const path = canonicalArchivePath(spec.path);
        const got = await fetchTarball({ file: spec.path }, opts);
        return scratchResult(
          got.scratch,
          got.dir,
          { kind: "tarball", uri: path, sha256: got.sha256 },
          `tarball:${path}`,
          path,
        );
      }
      const got = await fetchTarball({ url: spec.url }, opts);
      const uri = storableUrl(spec.url);
      const fetched = scratchResult(
        got.scratch,
        got.dir,
        { kind: "tarball", uri, sha256: got.sha256 },
        `tarball:${uri}`,
        redactUrl(spec.url),
      );
      if (got.signature !== undefined) fetched.signature = { text: got.signature, label: `${redactUrl(spec.url)}.sig` };
      return fetched;
    }
    case "git": {
      const uri = storableUrl(spec.url);
      const display = redactUrl(spec.url);
      const got = await fetchGit(
        ctx,
        { url: spec.url, ref: spec.ref, pin: spec.pin?.toLowerCase(), subpath: spec.subpath, display },
        opts,
      );
      const record: SourceRecord = { kind: "git", uri, sha: got.sha };
      const asked = spec.ref ?? spec.pin?.toLowerCase();
      if (asked !== undefined) record.ref = asked;
      if (spec.subpath !== undefined) record.subpath = spec.subpath;
      const identity = `git:${uri}${spec.subpath !== undefined ? `:${spec.subpath}` : ""}`;
      return scratchResult(
        got.scratch,
        got.dir,
        record,
        identity,
        `${display}${asked !== undefined ? `#${asked}` : ""}${spec.subpath !== undefined ? ` (${spec.subpath})` : ""}`,
      );
    }
    case "github": {
      const repository = `${spec.owner}/${spec.repo}`;
      const display = githubDisplay(repository, spec.ref ?? spec.pin, spec.subpath);
      const got = await fetchGit(
        ctx,
        {
          url: `https://github.com/${repository}.git`,
          ref: spec.ref,
          pin: spec.pin?.toLowerCase(),
          subpath: spec.subpath,
          display,
        },
        opts,
      );
      const record: SourceRecord = { kind: "github", repository, sha: got.sha };
      const asked = spec.ref ?? spec.pin?.toLowerCase();
      if (asked !== undefined) record.ref = asked;
      if (spec.subpath !== undefined) record.subpath = spec.subpath;
      return scratchResult(got.scratch, got.dir, record, `github:${repository}:${spec.subpath ?? ""}`, display);
    }
  }
}

/** A local directory is used in place: never copied, never written. */
function fetchPath(path: string, opts: FetchOptions): FetchedSource {
  let real: string;
  try {
    real = realpathSync(path);
    if (!statSync(real).isDirectory())
      throw sourceError(
        "invalid_source",
        `${path} is not a directory.`,
        "Give the bundle's directory, or a .tgz/.tar.gz/.tar archive.",
      );
  } catch (error) {
    if ((error as { code?: string }).code === "invalid_source") throw error;
    throw sourceError(
      "source_unreachable",
      `The directory ${path} does not exist or cannot be read.`,
      "Check the path (~/ is expanded; relative paths are taken from the current directory).",
    );
  }
  requireManifest(real, opts.manifestNames, real);
  return {
    dir: real,
    record: { kind: "path", uri: real },
    identity: `path:${real}`,
    display: real,
    cleanup: async () => {},
  };
}

function scratchResult(
  scratch: string,
  dir: string,
  record: SourceRecord,
  identity: string,
  display: string,
): FetchedSource {
  let done = false;
  return {
    dir,
    record,
    identity,
    display,
    cleanup: async () => {
      if (done) return;
      rmSync(scratch, { recursive: true, force: true });
      done = true;
    },
  };
}

export function githubDisplay(repository: string, ref: string | undefined, subpath: string | undefined): string {
  if (ref !== undefined)
    return `https://github.com/${repository}/tree/${ref}${subpath !== undefined ? `/${subpath}` : ""}`;
  return `https://github.com/${repository}${subpath !== undefined ? ` (${subpath})` : ""}`;
}
