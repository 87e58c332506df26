import { renameSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { fsyncDir } from "../bundle/atomic-fs.ts";

/**
 * The directory moves of the store's transactions, for both families. Content is always written
 * into a staging directory beside its destination (same file system, so the rename is atomic)
 * and moved into place whole; what leaves is renamed aside first and deleted after, so a crash
 * in between leaves a name the leftover sweep recognises, never a half-deleted bundle. The
 * commit point itself is a family's record: GJC's registry.json, written with writeFileAtomic
 * (temp, fsync, rename, fsync of the directory), or the rename of a C2 bundle home that carries
 * its record.
 */

/** Moves a fully written staging directory to `dest` and makes the rename durable. */
export function placeStaged(stage: string, dest: string): void {
  renameSync(stage, dest);
  fsyncDir(dirname(dest));
}

/**
 * Moves a directory nothing references any more aside to `trash` (atomic, durable), then deletes
 * it. `onAside` runs between the two (the crash tests stop there). False when `dir` was already
 * gone.
 */
export function retireDir(dir: string, trash: string, onAside?: () => void): boolean {
  try {
    renameSync(dir, trash);
  } catch {
    return false;
  }
  fsyncDir(dirname(trash));
  onAside?.();
  rmSync(trash, { recursive: true, force: true });
  return true;
}
