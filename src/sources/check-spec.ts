import { hasControlChars } from "../bundle/names.ts";
import { sourceError } from "./errors.ts";
import { checkGitRef, isFullSha } from "./git-ref.ts";
import { redactUrl } from "./redact.ts";
import type { SourceSpec } from "./types.ts";

const GIT_URL = /^(?:(?:https|ssh|file):\/\/|[A-Za-z0-9._~-]+@[A-Za-z0-9.-]+:(?!\/\/))/i;
const GITHUB_PART = /^[A-Za-z0-9._-]+$/;

/**
 * The git URL rules shared by typed specs and catalog entries: one of the allowed transports,
 * no whitespace or control characters, and no host, user or path starting with "-" (it would
 * reach ssh as an option, CVE-2017-1000117).
 */
export function checkGitUrl(url: string): string {
  if (url === "" || /\s/.test(url) || hasControlChars(url))
    throw sourceError(
      "invalid_source",
      `Not a valid git URL: ${JSON.stringify(redactUrl(url))}`,
      "Give an https://, ssh://, user@host:path or file:// URL.",
    );
  if (!GIT_URL.test(url)) {
    throw sourceError(
      "security_policy",
      `The git URL ${redactUrl(url)} does not use an allowed transport.`,
      "Only https://, ssh:// (or user@host:path) and file:// git URLs are fetched.",
    );
  }
  if (/^-|:\/\/-|@-|^[^/]*@[^:]*:-/.test(url)) {
    throw sourceError(
      "security_policy",
      `The git URL ${redactUrl(url)} has a host, user or path that starts with "-".`,
      "Check the URL; such names would be read as command options.",
    );
  }
  return url;
}

/**
 * Re-checks a spec right before fetching. Specs typed by a person were already checked by
 * parseSourceSpec; specs built from catalog entries (untrusted data) get the same rules here.
 */
export function checkSpec(spec: SourceSpec): void {
  switch (spec.kind) {
    case "path":
      return;
    case "tarball":
      if (spec.location === "https" && !/^https:\/\//i.test(spec.url)) {
        throw sourceError(
          "security_policy",
          `The archive URL ${redactUrl(spec.url)} is not https.`,
          "Archives are downloaded over https only.",
        );
      }
      return;
    case "git":
      checkGitUrl(spec.url);
      checkRefs(spec);
      return;
    case "github":
      for (const part of [spec.owner, spec.repo]) {
        if (typeof part !== "string" || !GITHUB_PART.test(part) || part === "." || part === "..") {
          throw sourceError(
            "invalid_source",
            `The GitHub repository ${JSON.stringify(`${spec.owner}/${spec.repo}`)} is not a valid owner/repo.`,
            "Owner and repository names use letters, digits, '.', '_' and '-'.",
          );
        }
      }
      checkRefs(spec);
      return;
  }
}

function checkRefs(spec: { ref?: string; pin?: string }): void {
  if (spec.ref !== undefined) checkGitRef(spec.ref);
  if (spec.pin !== undefined && !isFullSha(spec.pin)) {
    throw sourceError(
      "invalid_source",
      `The pinned commit ${JSON.stringify(spec.pin)} is not a full SHA (40 or 64 hexadecimal characters).`,
      "Pin the full commit id.",
    );
  }
}
