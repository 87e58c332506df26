import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writingTo } from "../core/os-errors.ts";

/** fsync a directory so a rename inside it survives a crash. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A unique sibling name for temporary files, so concurrent writers never share one. */
export function tempSibling(path: string, tag = "tmp"): string {
  const rand = Math.random().toString(36).slice(2, 10);
  return join(dirname(path), `.${basename(path)}.${tag}-${process.pid}-${rand}`);
}

export interface AtomicWriteOptions {
  mode?: number;
  /**
   * fsync the file and its directory (default). Off only for files derived from a committed
   * one (a last good copy, an index): after a power loss they may be old or empty, and their
   * readers fall back to the source of truth.
   */
  durable?: boolean;
}

/**
 * Writes a file so readers see the old bytes or the new bytes, never a mix: a unique temp
 * sibling (created exclusively), fsync, rename over the target, fsync of the directory.
 * `Bun.write` truncates in place, which is why it is not used for anything we commit.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: number | AtomicWriteOptions = {},
): void {
  // An OS refusal names the file being written, not its temp sibling.
  writingTo(path, () => writeViaTempSibling(path, data, options), { replace: true });
}

function writeViaTempSibling(path: string, data: string | Uint8Array, options: number | AtomicWriteOptions): void {
  const { mode = 0o644, durable = true } = typeof options === "number" ? { mode: options } : options;
  const tmp = tempSibling(path);
  const fd = openSync(tmp, "wx", mode);
  try {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    if (durable) fsyncSync(fd);
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
  if (durable) fsyncDir(dirname(path));
}
