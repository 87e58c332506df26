import { closeSync, fchmodSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { writingTo } from "../core/os-errors.ts";
import { installableMode } from "../bundle/read-file.ts";

/**
 * The installed-file record both families keep for every file they install: the store's own
 * vocabulary. On disk a family may spell it its own way (GJC `copiedFiles[].relativePath`,
 * C2 `files[].size`); its adapter converts, so the formats written by earlier versions stay.
 */
export interface StoredFile {
  /** Bundle-relative POSIX path. */
  path: string;
  sha256: string;
  bytes: number;
  /** Permission bits as installed (`mode & 0o777`). */
  mode: number;
}

/**
 * Writes exactly the validated bytes (what the family's plan hashed) into a fresh staging
 * directory beside the destination. Nothing is read from the source again, so a source that
 * changes after validation cannot change what is installed. Files are created exclusively and
 * fchmod'ed to the recorded mode past the umask. `onHalf` lets the crash tests stop the
 * process with a half-written staging directory.
 */
export function writeFiles(
  dir: string,
  files: readonly StoredFile[],
  contents: ReadonlyMap<string, Uint8Array>,
  onHalf?: () => void,
): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const made = new Set<string>([dir]);
  const half = Math.floor(files.length / 2);
  for (const [i, file] of files.entries()) {
    if (i === half) onHalf?.();
    const bytes = contents.get(file.path);
    if (!bytes || bytes.length !== file.bytes) {
      throw new GjcError({
        code: "internal_error",
        message: `The plan kept no bytes for ${file.path}.`,
        exit: ExitCode.internal,
      });
    }
    const abs = join(dir, file.path);
    const parent = dirname(abs);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true, mode: 0o755 });
      made.add(parent);
    }
    // Plans carry installable modes already (src/bundle/read-file.ts); masked again so that no
    // path into the store can install a file others may write or a setuid/setgid one.
    const mode = installableMode(file.mode);
    const fd = openSync(abs, "wx", mode);
    try {
      let offset = 0;
      // a full disk reports ENOSPC from writeSync with no path: name the file
      writingTo(abs, () => {
        while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      });
      fchmodSync(fd, mode);
    } finally {
      closeSync(fd);
    }
  }
}
