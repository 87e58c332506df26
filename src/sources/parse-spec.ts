import { statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hasControlChars } from "../bundle/names.ts";
import { expandHome, type Context } from "../core/context.ts";
import { sourceError } from "./errors.ts";
import { checkGitUrl } from "./check-spec.ts";
import { checkGitRef, isFullSha } from "./git-ref.ts";
import { isGithubShorthand, looksLikeGithubUrl, parseGithubShorthand, parseGithubUrl } from "./github-spec.ts";
import { redactUrl } from "./redact.ts";
import type { SourceSpec } from "./types.ts";

const TARBALL_SUFFIX = /\.(?:tgz|tar\.gz|tar)$/i;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//;
/** `user@host:path`, git's scp-like ssh syntax. A user is required so `c:/x` or `a:b` never reads as a host. */
const SCP_LIKE = /^[A-Za-z0-9._~-]+@[A-Za-z0-9.-]+:(?!\/\/)/;
const LOCAL_PREFIX = /^(?:\/|\.\/|\.\.\/|~\/)/;
const USAGE_HINT =
  "Give a local directory (./dir, /abs/dir, ~/dir), a tarball (.tgz, .tar.gz, .tar, local or https://), a git URL (https://, ssh://, user@host:path, file://, optionally #<ref>), or GitHub owner/repo.";

export function isTarballName(name: string): boolean {
  return TARBALL_SUFFIX.test(name);
}

/**
 * Classifies what a person typed. Pure apart from one stat that tells an existing relative
 * path (`plugins/foo`) from GitHub shorthand (`owner/repo`): see the ambiguity rule in types.ts.
 */
export function parseSourceSpec(spec: string, ctx: Context): SourceSpec {
  if (typeof spec !== "string" || spec.trim() === "")
    throw sourceError("invalid_source", "The source is empty.", USAGE_HINT);
  if (hasControlChars(spec))
    throw sourceError("invalid_source", "The source contains a control character.", USAGE_HINT);
  const raw = spec;

  if (looksLikeGithubUrl(spec)) return { kind: "github", raw, ...parseGithubUrl(spec) };

  const scheme = SCHEME.exec(spec)?.[1]?.toLowerCase();
  if (scheme !== undefined) return parseSchemeUrl(spec, scheme, raw);

  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(spec)) {
    throw sourceError(
      "security_policy",
      `The git transport in ${JSON.stringify(spec.split("::")[0])}:: is not allowed.`,
      "Only https://, ssh:// (or user@host:path) and file:// git URLs are fetched.",
    );
  }
  if (SCP_LIKE.test(spec)) return gitSpec(spec, raw);

  if (LOCAL_PREFIX.test(spec) || spec === "." || spec === ".." || spec === "~") return localSpec(ctx, spec, raw);
  if (existsRelative(ctx, spec)) return localSpec(ctx, spec, raw);
  if (isTarballName(spec)) return localSpec(ctx, spec, raw);
  if (isGithubShorthand(spec)) return { kind: "github", raw, ...parseGithubShorthand(spec) };
  throw sourceError(
    "invalid_source",
    `Cannot tell what kind of source ${JSON.stringify(spec)} is (no such file or directory here).`,
    USAGE_HINT,
  );
}

function parseSchemeUrl(spec: string, scheme: string, raw: string): SourceSpec {
  if (/\s/.test(spec))
    throw sourceError(
      "invalid_source",
      `A URL source cannot contain whitespace: ${JSON.stringify(redactUrl(spec))}`,
      USAGE_HINT,
    );
  if (scheme === "https") {
    let url: URL;
    try {
      url = new URL(spec);
    } catch {
      throw sourceError("invalid_source", `Not a valid URL: ${redactUrl(spec)}`, USAGE_HINT);
    }
    if (isTarballName(url.pathname)) {
      if (spec.includes("#"))
        throw sourceError(
          "invalid_source",
          `A tarball URL cannot carry a #fragment: ${redactUrl(spec)}`,
          "Remove the #… part.",
        );
      return { kind: "tarball", raw, location: "https", url: spec };
    }
    return gitSpec(spec, raw);
  }
  if (scheme === "ssh") return gitSpec(spec, raw);
  if (scheme === "file") {
    const hashAt = spec.indexOf("#");
    const withoutRef = hashAt < 0 ? spec : spec.slice(0, hashAt);
    if (isTarballName(withoutRef)) {
      if (hashAt >= 0)
        throw sourceError("invalid_source", `A tarball cannot carry a #fragment: ${spec}`, "Remove the #… part.");
      let path: string;
      try {
        path = fileURLToPath(spec);
      } catch {
        throw sourceError("invalid_source", `Not a valid file URL: ${spec}`, USAGE_HINT);
      }
      return { kind: "tarball", raw, location: "file", path };
    }
    return gitSpec(spec, raw);
  }
  throw sourceError(
    "security_policy",
    `The ${scheme}:// transport is not allowed for sources.`,
    "Use https:// (tarballs and git), ssh:// or user@host:path (git), or file:// (git). Plain http and git:// are unauthenticated and never used.",
  );
}

function gitSpec(spec: string, raw: string): SourceSpec {
  const hashAt = spec.indexOf("#");
  const url = hashAt < 0 ? spec : spec.slice(0, hashAt);
  checkGitUrl(url);
  if (hashAt < 0) return { kind: "git", raw, url };
  const ref = spec.slice(hashAt + 1);
  if (isFullSha(ref)) return { kind: "git", raw, url, pin: ref.toLowerCase() };
  return { kind: "git", raw, url, ref: checkGitRef(ref) };
}

function localSpec(ctx: Context, spec: string, raw: string): SourceSpec {
  const path = expandHome(ctx, spec);
  if (isTarballName(path)) return { kind: "tarball", raw, location: "file", path };
  return { kind: "path", raw, path };
}

function existsRelative(ctx: Context, spec: string): boolean {
  try {
    statSync(resolve(ctx.cwd, spec));
    return true;
  } catch {
    return false;
  }
}
