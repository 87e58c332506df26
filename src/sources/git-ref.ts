import { hasControlChars } from "../bundle/names.ts";
import { sourceError } from "./errors.ts";

/** A full commit id: 40 hex (SHA-1 repositories) or 64 hex (SHA-256 repositories). */
export function isFullSha(ref: string): boolean {
  return /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/.test(ref);
}

/**
 * A branch or tag name we are willing to hand to git: git's own ref-name rules plus no
 * leading `-` (it would read as an option) and no control characters or whitespace.
 */
export function checkGitRef(ref: string): string {
  const bad =
    ref === "" ||
    ref.startsWith("-") ||
    ref.startsWith("/") ||
    ref.endsWith("/") ||
    ref.endsWith(".") ||
    ref.endsWith(".lock") ||
    ref === "@" ||
    ref.includes("..") ||
    ref.includes("//") ||
    ref.includes("@{") ||
    /[\s~^:?*[\\]/.test(ref) ||
    hasControlChars(ref) ||
    ref.split("/").some((c) => c.startsWith("."));
  if (bad) {
    throw sourceError(
      "invalid_source",
      `The git reference ${JSON.stringify(ref)} is not a valid branch, tag or commit.`,
      "After '#', name a branch, a tag, or a full 40-character commit SHA.",
    );
  }
  return ref;
}
