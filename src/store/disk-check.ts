/**
 * Whether the files of an installed (or cached) bundle on disk are the recorded ones,
 * read-only, through the store's one file verifier (lstat semantics, no link followed, extra
 * files reported). It needs only the root and the recorded file list, so it serves both families.
 */
import type { StoredFile } from "./files.ts";
import { verifyFiles, type FileProblem } from "./verify.ts";

export function diskProblems(b: { root: string; files: readonly StoredFile[] }): FileProblem[] {
  return verifyFiles(b.root, b.files).problems;
}
