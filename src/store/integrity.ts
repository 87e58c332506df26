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
import { sha256Hex } from "../bundle/hash.ts";

export interface ContentFile {
  path: string;
  mode: number;
  sha256: string;
}

const byPathBytes = (a: ContentFile, b: ContentFile) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));

export function canonicalFileList(files: readonly ContentFile[]): string {
  let out = "";
  for (const f of [...files].sort(byPathBytes)) out += `${f.path}\0${(f.mode & 0o7777).toString(8).padStart(4, "0")}\0${f.sha256}\n`;
  return out;
}

export function integrityOf(files: readonly ContentFile[]): string {
  return `sha256:${sha256Hex(canonicalFileList(files))}`;
}

export const INTEGRITY_PATTERN = "^sha256:[0-9a-f]{64}$";

/** The hex part of `sha256:<hex>` (the cache's directory name). */
export function integrityHex(integrity: string): string {
  return integrity.slice("sha256:".length);
}
