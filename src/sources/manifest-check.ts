import { lstatSync } from "node:fs";
import { join } from "node:path";
import { sourceError } from "./errors.ts";

/**
 * The selected directory itself must hold one of the manifests as a regular file: the
 * bundle root is chosen explicitly, never by searching parents or children.
 */
export function requireManifest(dir: string, manifestNames: string[], where: string): void {
  if (manifestNames.length === 0) return;
  for (const name of manifestNames) {
    try {
      if (lstatSync(join(dir, name)).isFile()) return;
    } catch {
      // Try the next name.
    }
  }
  throw sourceError(
    "missing_file",
    `No ${manifestNames.join(" or ")} in ${where}.`,
    "Select the directory that holds the bundle manifest (for GitHub, a /tree/<ref>/<path> URL).",
  );
}
