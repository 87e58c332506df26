import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { tempSibling } from "../bundle/atomic-fs.ts";

/**
 * Replaces a file atomically (temp sibling + rename) WITHOUT fsync: for files derived from the
 * committed registry (its last good copy, list's index). After a power loss they may be old or
 * empty; doctor and list then fall back to registry.json, which is always written with fsync.
 */
export function replaceFile(path: string, data: string): void {
  const tmp = tempSibling(path);
  const fd = openSync(tmp, "wx", 0o644);
  try {
    const bytes = Buffer.from(data);
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
