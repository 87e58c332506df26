/**
 * The content digest of a bundle, `integrity: "sha256:<hex>"` in a lock, an audit and `install --integrity`.
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
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { sha256Hex } from "./hash.ts";

export interface ContentFile {
  path: string;
  mode: number;
  sha256: string;
}

const byPathBytes = (a: ContentFile, b: ContentFile) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));

export function canonicalFileList(files: readonly ContentFile[]): string {
  let out = "";
  for (const f of [...files].sort(byPathBytes))
    out += `${f.path}\0${(f.mode & 0o7777).toString(8).padStart(4, "0")}\0${f.sha256}\n`;
  return out;
}

export function integrityOf(files: readonly ContentFile[]): string {
  return `sha256:${sha256Hex(canonicalFileList(files))}`;
}

/**
 * Refuses content whose integrity is not `expected` (`install --integrity`: install exactly
 * what was audited). Called on the files the install is about to write, before anything is.
 */
export function assertIntegrity(files: readonly ContentFile[], expected: string, name: string, source: string): void {
  const actual = integrityOf(files);
  if (actual === expected) return;
  throw new GjcError({
    code: "integrity_mismatch",
    message: `${name} from ${source} has the content integrity ${actual}, not the ${expected} that was asked for. Nothing was written.`,
    hint: "The source serves other content than the one audited (a moved branch, a replaced archive, an edited directory). Audit it again (gjc plugin audit <source> --json shows its integrity), or pin the audited commit.",
    details: { name, source, expected, actual },
    exit: ExitCode.refused,
  });
}
