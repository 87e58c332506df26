import type { CompiledBundle } from "../families/gjc/compile-for-install.ts";
import { installedMode } from "../families/gjc/layout.ts";
import type { CopiedFile } from "./registry-types.ts";
import { writeFiles } from "../store/files.ts";

/**
 * Writes the compiler's bytes (the bytes it hashed) into a fresh staging directory through the
 * store, with the normalized mode (0755 if any execute bit was set, else 0644), and returns the
 * registry's copiedFiles records for them.
 */
export function writeStaging(staging: string, bundle: CompiledBundle, onHalf?: () => void): CopiedFile[] {
  const files = bundle.files.map((f) => ({
    path: f.path,
    sha256: f.sha256,
    bytes: f.bytes,
    mode: installedMode(f.mode),
  }));
  writeFiles(staging, files, bundle.contents, onHalf);
  return files.map((f) => ({ relativePath: f.path, sha256: f.sha256, bytes: f.bytes, mode: f.mode }));
}
