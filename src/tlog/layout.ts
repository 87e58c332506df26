/**
 * Where a release log lives and whether a source has one. Kept apart from the reader
 * (src/tlog/log-dir.ts) so the install pipeline's check for a log loads no cryptography.
 */
import { lstatSync } from "node:fs";
import { invalidLog } from "./errors.ts";

export const LOG_DIR = "gjc-log";
export const LOG_FILES = { key: "log-key.pub", checkpoint: "checkpoint", releases: "releases" } as const;

/**
 * Whether a source carries a log at `dir`. Anything there counts, so a damaged log is refused
 * rather than skipped: a link or a file in its place is `invalid_log`, never "no log".
 */
export function hasReleaseLog(dir: string): boolean {
  let st;
  try {
    st = lstatSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw invalidLog(LOG_DIR, `it cannot be read (${code ?? "error"})`, { path: dir });
  }
  if (!st.isDirectory())
    throw invalidLog(
      LOG_DIR,
      st.isSymbolicLink() ? "it is a symbolic link (a log is never read through a link)" : "it is not a directory",
      { path: dir },
    );
  return true;
}
