import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { statStamp } from "./derived-index.ts";
import type { StoredFile } from "./files.ts";

export type FileProblemKind = "missing" | "changed" | "extra" | "mode" | "symlink" | "special";

export interface FileProblem {
  kind: FileProblemKind;
  /** Bundle-relative path ("." for the content directory itself). */
  path: string;
  message: string;
}

export interface VerifyOptions {
  /**
   * statStamp of files as they were when they last hashed clean: a file whose stamp is still
   * the same is not read again (its presence and type are still checked by the walk).
   */
  known?: ReadonlyMap<string, string>;
  /** Filled with the statStamp of every file found clean, taken before it was hashed. */
  stamps?: Map<string, string>;
}

export interface BundleCheck {
  ok: boolean;
  /** Files hashed. */
  checked: number;
  problems: FileProblem[];
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);
const CHUNK = 1 << 20;
let buffer: Uint8Array | undefined;

/**
 * Hashes an installed file opened without following links. Returns what fstat on the open
 * descriptor says, so a file swapped for a link or a FIFO after the directory scan is caught.
 */
function hashFile(abs: string, expectBytes: number): { kind: "file"; sha256: string; size: number; mode: number } | { kind: "symlink" | "special" | "missing" } | { kind: "size"; size: number; mode: number } {
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "EMLINK") return { kind: "symlink" };
    if (code === "ENXIO") return { kind: "special" };
    return { kind: "missing" };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: "special" };
    const mode = st.mode & 0o777;
    if (st.size !== expectBytes) return { kind: "size", size: st.size, mode };
    const hasher = new Bun.CryptoHasher("sha256");
    buffer ??= new Uint8Array(CHUNK);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      hasher.update(n === CHUNK ? buffer : buffer.subarray(0, n));
      if (total > expectBytes) break;
    }
    if (total !== expectBytes) return { kind: "size", size: total, mode };
    return { kind: "file", sha256: hasher.digest("hex"), size: total, mode };
  } finally {
    closeSync(fd);
  }
}

/**
 * Re-checks an installed content directory against its installed-file records, with lstat
 * semantics throughout: every recorded file must be a regular file (not a link, not a special
 * file) with the recorded size, SHA-256 and mode, and nothing else may be in the directory.
 * Read-only; the family decides about quarantine. Both families verify through this.
 */
export function verifyFiles(root: string, files: readonly StoredFile[], options: VerifyOptions = {}): BundleCheck {
  const { known, stamps } = options;
  const problems: FileProblem[] = [];
  const add = (kind: FileProblemKind, path: string, what: string) => problems.push({ kind, path, message: `${what}: ${path}` });
  let rootStat;
  try {
    rootStat = lstatSync(root);
  } catch {
    for (const f of files) add("missing", f.path, "Installed file missing");
    return { ok: false, checked: 0, problems };
  }
  if (!rootStat.isDirectory()) {
    add(rootStat.isSymbolicLink() ? "symlink" : "special", ".", "The installed directory was replaced by a link or a file");
    return { ok: false, checked: 0, problems };
  }

  // One walk of what is there, by directory entry type (no link is followed).
  const present = new Map<string, "file" | "dir" | "symlink" | "special">();
  const walk = (abs: string, rel: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of entries) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        present.set(r, "dir");
        walk(join(abs, d.name), r);
      } else present.set(r, d.isFile() ? "file" : d.isSymbolicLink() ? "symlink" : "special");
    }
  };
  walk(root, "");

  const expectedDirs = new Set<string>();
  let checked = 0;
  for (const f of files) {
    const parts = f.path.split("/");
    for (let i = 1; i < parts.length; i++) expectedDirs.add(parts.slice(0, i).join("/"));
    const type = present.get(f.path);
    present.delete(f.path);
    if (type === undefined) {
      add("missing", f.path, "Installed file missing");
      continue;
    }
    if (type === "symlink") {
      add("symlink", f.path, "Installed file replaced by a symbolic link");
      continue;
    }
    if (type !== "file") {
      add("special", f.path, "Installed file replaced by a directory or special file");
      continue;
    }
    const abs = join(root, f.path);
    // Stamped before hashing: a change made while the file is read shows in the next stamp.
    const before = known || stamps ? statStamp(abs) : undefined;
    if (before !== undefined && known?.get(f.path) === before) {
      stamps?.set(f.path, before);
      continue;
    }
    const got = hashFile(abs, f.bytes);
    checked++;
    if (got.kind === "file") {
      if (got.sha256 !== f.sha256) add("changed", f.path, "Installed file changed");
      else if (got.mode !== f.mode) add("mode", f.path, `Installed file mode changed to ${got.mode.toString(8)} (recorded ${f.mode.toString(8)})`);
      else if (before !== undefined) stamps?.set(f.path, before);
    } else if (got.kind === "size") add("changed", f.path, "Installed file changed");
    else if (got.kind === "symlink") add("symlink", f.path, "Installed file replaced by a symbolic link");
    else if (got.kind === "special") add("special", f.path, "Installed file replaced by a special file");
    else add("missing", f.path, "Installed file missing");
  }
  for (const [rel, type] of present) {
    if (type === "dir" && expectedDirs.has(rel)) continue;
    add("extra", rel, type === "symlink" ? "Unexpected symbolic link in the installed bundle" : type === "dir" ? "Unexpected directory in the installed bundle" : "Unexpected file in the installed bundle");
  }
  return { ok: problems.length === 0, checked, problems };
}
