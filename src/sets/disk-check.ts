/**
 * Whether the files of an installed bundle on disk are the recorded ones, read-only, through
 * the store's one verifier (lstat semantics, no link followed, extra files reported). It only
 * needs the root and the recorded (path, sha256, bytes, mode) list, so it serves both families.
 */
import { verifyInstalledBundle, type FileProblem, type RegistryEntry } from "../install/api.ts";
import type { InstalledBundle } from "./installed.ts";

export function diskProblems(b: Pick<InstalledBundle, "root" | "files">): FileProblem[] {
  const view = { pluginRoot: b.root, copiedFiles: b.files.map((f) => ({ relativePath: f.path, sha256: f.sha256, bytes: f.bytes, mode: f.mode })) };
  return verifyInstalledBundle(view as unknown as RegistryEntry).problems;
}
