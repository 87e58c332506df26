/**
 * Whether the files of an installed (or cached) bundle on disk are the recorded ones,
 * read-only, through the store's one file verifier (lstat semantics, no link followed, extra
 * files reported). It needs only the root and the recorded file list, so it serves both families.
 */
import { verifyFiles, type FileProblem } from "../store/verify.ts";
import type { InstalledBundle } from "./installed.ts";

export function diskProblems(b: Pick<InstalledBundle, "root" | "files">): FileProblem[] {
  return verifyFiles(b.root, b.files).problems;
}
