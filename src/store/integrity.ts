/**
 * The content digest of an installed bundle, `integrity: "sha256:<hex>"` in a lock.
 *
 * Canonical encoding (documented in README "Team plugin sets"): take every installed file as
 * (path, mode, sha256), where `path` is the bundle-relative POSIX path, `mode` the permission
 * bits as installed and `sha256` the lowercase hex digest of its bytes. Sort by the UTF-8
 * bytes of `path`. For each file write the line
 *
 *     <path> NUL <mode as 4 octal digits> NUL <sha256 hex> LF
 *
 * and hash the concatenation (UTF-8) with SHA-256. NUL and LF cannot occur in a path gjc
 * accepts (control characters are refused), so the encoding is unambiguous. Both families
 * use it: GJC over the registry's copiedFiles, C2 over the installed record's files.
 */
// The encoding lives with the other bundle primitives (src/bundle/content-integrity.ts): the
// stores, audit and install check the same digest without importing the sets layer.
export { canonicalFileList, integrityOf, type ContentFile } from "../bundle/content-integrity.ts";

export const INTEGRITY_PATTERN = "^sha256:[0-9a-f]{64}$";

/** The hex part of `sha256:<hex>` (the cache's directory name). */
export function integrityHex(integrity: string): string {
  return integrity.slice("sha256:".length);
}
