import { closeSync, constants, fchmodSync, mkdirSync, openSync, symlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { JudgedEntry } from "./judge.ts";

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** The process umask, read once (setting it back at once); a file needs fchmod only when the umask would strip a judged bit. */
const UMASK = (() => {
  const m = process.umask(0o022);
  process.umask(m);
  return m;
})();

/**
 * Writes judged entries under a directory we just created (so it holds nothing we did not
 * put there). Files are created exclusively without following links and get exactly the
 * judged mode; directories come first, parents before children.
 */
export function writeEntries(dest: string, entries: JudgedEntry[]): void {
  const dirs = new Set<string>();
  for (const e of entries) {
    const parts = e.path.split("/");
    const upto = e.type === "dir" ? parts.length : parts.length - 1;
    for (let i = 1; i <= upto; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  const ordered = [...dirs].sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
  for (const d of ordered) mkdirSync(join(dest, d), { mode: 0o755 });
  for (const e of entries) {
    if (e.type === "symlink") {
      // Kept as the link git would have checked out; the collectors judge it with lstat.
      symlinkSync(e.linkTarget ?? "", join(dest, e.path));
      continue;
    }
    if (e.type !== "file") continue;
    const fd = openSync(join(dest, e.path), CREATE_FLAGS, e.mode);
    try {
      const data = e.data ?? new Uint8Array(0);
      let off = 0;
      while (off < data.length) off += writeSync(fd, data, off, data.length - off);
      if ((e.mode & ~UMASK) !== e.mode) fchmodSync(fd, e.mode);
    } finally {
      closeSync(fd);
    }
  }
}
