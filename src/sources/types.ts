/**
 * The sources layer: turns what a person typed (or what a catalog entry names) into a local
 * directory that IS the bundle root, fail-closed and bounded (DESIGN §2 item 14).
 *
 *   parseSourceSpec(spec, ctx)            pure classification (one stat to tell a bare local
 *                                         path from `owner/repo`), throws `invalid_source`
 *   fetchSource(ctx, spec, opts)          fetches into a fresh `mkdtemp(<scratchRoot>/fetch-<pid>-)`
 *                                         (never for "path": the user's dir is returned as is)
 *   specFromRecord(record)                re-resolves a stored record (upgrade)
 *   redactUrl(url)                        a URL safe to print
 *
 * Errors are `GjcError`s (codes below, exit class in brackets):
 *   invalid_source [2]     the spec cannot be parsed / is a refused GitHub form / bad ref
 *   security_policy [3]    a refused transport or URL, a hostile archive entry, a redirect to
 *                          another origin, a subpath through a symlink or outside the checkout
 *   hash_mismatch [3]      `expectedSha256` differs from the archive bytes, or a pinned commit
 *                          differs from what git checked out
 *   source_unreachable [4] a path that does not exist, git failed or timed out, a network error
 *                          or a non-2xx answer
 *   source_too_large [1]   a budget of `limits` (files, bytes per file, bytes in all, depth,
 *                          path bytes, archive bytes) was exceeded, streaming stopped there
 *   invalid_archive [1]    a truncated or corrupt archive (bad gzip, bad header field)
 *   missing_file [1]       no manifest (one of `manifestNames`) where the bundle root must be
 *
 * Ambiguity rule (documented for users): a spec is a local path when it starts with `/`, `./`,
 * `../`, `~/` (or is `.`, `..`, `~`) or names an existing file or directory relative to the
 * current directory; otherwise `owner/repo` is GitHub shorthand. Tarballs are recognised by
 * the suffix `.tgz`, `.tar.gz` or `.tar` (case-insensitive).
 */
import type { BundleLimits } from "../bundle/limits.ts";

/** What the registry / installed record stores. Never holds credentials (userinfo is removed). */
export type SourceRecord =
  | { kind: "path"; uri: string }
  /** `uri`: absolute local path, or an https URL; `sha256` of the archive bytes as fetched. */
  | { kind: "tarball"; uri: string; sha256: string }
  /** `ref`: what was asked for (branch, tag, or a full-SHA pin); `sha`: the commit checked out. */
  | { kind: "git"; uri: string; ref?: string; sha: string; subpath?: string }
  /** `repository`: `owner/repo` exactly as typed. */
  | { kind: "github"; repository: string; ref?: string; sha: string; subpath?: string };

/** A classified source, before anything was fetched. `raw` is what the person typed. */
export type SourceSpec =
  | { kind: "path"; raw: string; path: string }
  | { kind: "tarball"; raw: string; location: "file"; path: string }
  | { kind: "tarball"; raw: string; location: "https"; url: string }
  /**
   * `url`: https://, ssh://, scp-style `user@host:path` or file://. `ref`: branch or tag.
   * `pin`: a full commit SHA (40 or 64 hex) to fetch and verify; a `#<sha>` suffix lands
   * here. When both are set (catalog entries), the pin is fetched and `ref` is only recorded.
   * `subpath`: the bundle root inside the checkout (catalog `git` entries).
   */
  | { kind: "git"; raw: string; url: string; ref?: string; pin?: string; subpath?: string }
  | { kind: "github"; raw: string; owner: string; repo: string; ref?: string; pin?: string; subpath?: string };

/** Test seam for https downloads; production code leaves it unset. */
export interface NetworkOverrides {
  /**
   * Replaces the URL policy + DNS check: returns the already-checked addresses to connect to
   * for `url`, or throws. Default: `classifyMcpUrl` then `resolveAndCheck` (src/policy).
   */
  resolveAddresses?: (url: URL) => Promise<string[]>;
  /** DNS answers for the default policy check (`resolveAndCheck`'s resolver), e.g. to prove rebinding is refused. */
  resolver?: (name: string) => Promise<string[]>;
  /** Extra trusted CA (PEM), e.g. a test server's self-signed certificate. */
  ca?: string;
}

export interface FetchOptions {
  /** Parent of the fresh `fetch-<pid>-<random>` scratch dir (scratchParent(ctx) in production). Created if missing; never removed by us. */
  scratchRoot: string;
  limits: BundleLimits;
  /** Archives only: the archive bytes must hash to this (lowercase hex) before anything is written. */
  expectedSha256?: string;
  /** Manifest file names that mark a bundle root, e.g. ["gajae-plugin.json", "plugin.json"]. */
  manifestNames: string[];
  /** Kills git's whole process group after this long. Default 120 000 ms. */
  gitTimeoutMs?: number;
  /** Aborts an https download after this long. Default 120 000 ms. */
  downloadTimeoutMs?: number;
  /** Progress lines for long operations (large downloads, git). Never holds credentials. */
  onProgress?: (message: string) => void;
  net?: NetworkOverrides;
}

export interface FetchedSource {
  /** Local directory that IS the bundle root (subpath applied). For "path": the user's own dir, never written. */
  dir: string;
  record: SourceRecord;
  /**
   * Stable identity without the ref (input to the C2 installed id):
   * `path:<realpath>`, `tarball:<realpath or redacted url>`, `git:<redacted url>[:<subpath>]`,
   * `github:<owner>/<repo>:<subpath or "">`.
   */
  identity: string;
  /** For humans, credentials redacted. */
  display: string;
  /** A detached signature fetched beside the source (`<url>.sig` of an https archive). */
  signature?: { text: string; label: string };
  /** Removes the scratch dir this fetch made (nothing for "path"). Idempotent. */
  cleanup(): Promise<void>;
}
