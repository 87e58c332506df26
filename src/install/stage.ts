import { closeSync, fchmodSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { CompiledBundle } from "./compile-for-install.ts";
import { installedMode } from "./fingerprint.ts";
import type { CopiedFile } from "./registry-types.ts";

/**
 * Writes exactly the validated bytes (the compiler's `contents`, the bytes it hashed) into a
 * fresh staging directory. Nothing is read from the source again, so a source that changes
 * after validation cannot change what is installed. Files are created exclusively with the
 * normalized mode (0755 if any execute bit was set, else 0644), fchmod'ed past the umask.
 * `onHalf` lets the crash tests stop the process with a half-written staging directory.
 */
export function writeStaging(staging: string, bundle: CompiledBundle, onHalf?: () => void): CopiedFile[] {
  mkdirSync(staging, { mode: 0o755 });
  const made = new Set<string>([staging]);
  const copied: CopiedFile[] = [];
  const half = Math.floor(bundle.files.length / 2);
  for (const [i, file] of bundle.files.entries()) {
    if (i === half) onHalf?.();
    const bytes = bundle.contents.get(file.path);
    if (!bytes || bytes.length !== file.bytes) {
      throw new GjcError({ code: "internal_error", message: `The compiler kept no bytes for ${file.path}.`, exit: ExitCode.internal });
    }
    const abs = join(staging, file.path);
    const parent = dirname(abs);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true, mode: 0o755 });
      made.add(parent);
    }
    const mode = installedMode(file.mode);
    const fd = openSync(abs, "wx", mode);
    try {
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      fchmodSync(fd, mode);
    } finally {
      closeSync(fd);
    }
    copied.push({ relativePath: file.path, sha256: file.sha256, bytes: file.bytes, mode });
  }
  return copied;
}
