import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, type Dirent } from "node:fs";
import { sha256Hasher, sha256Hex } from "../bundle/hash.ts";
import { statStamp } from "./derived-index.ts";
import type { StoredFile } from "./files.ts";

/** How an installed file differs from its record (also the `files[].kind` of `lock --check`). */
export const FILE_PROBLEM_KINDS = ["missing", "changed", "extra", "mode", "symlink", "special"] as const;
export type FileProblemKind = (typeof FILE_PROBLEM_KINDS)[number];

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
  /**
   * Bundle-relative paths whose bytes the caller needs (session start's appendix and sub-skill
   * texts): they are returned in `kept` from the same read that was hashed, so the bytes used
   * are the bytes checked and no file is read twice.
   */
  keep?: ReadonlySet<string>;
}

export interface BundleCheck {
  ok: boolean;
  /** Files hashed. */
  checked: number;
  problems: FileProblem[];
  /** The verified bytes of the `keep` files that hashed clean. */
  kept: Map<string, Uint8Array>;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);
const CHUNK = 1 << 20;
let buffer: Uint8Array | undefined;

type Hashed =
  | { kind: "file"; sha256: string; size: number; mode: number; bytes?: Uint8Array }
  | { kind: "symlink" | "special" | "missing" }
  | { kind: "size"; size: number; mode: number };

/**
 * Hashes an installed file opened without following links. Returns what fstat on the open
 * descriptor says, so a file swapped for a link or a FIFO after the directory scan is caught.
 * With `keep`, the file is read whole into its own buffer and those bytes are returned.
 */
function hashFile(abs: string, expectBytes: number, keep: boolean): Hashed {
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
    // A file that fits the shared buffer, or is kept, is read whole and hashed in one call; a
    // larger one is streamed through a hasher a chunk at a time. One byte more than recorded
    // is asked for, so a file that grew since fstat shows as changed.
    const whole = keep || expectBytes < CHUNK;
    const target = keep ? new Uint8Array(expectBytes + 1) : (buffer ??= new Uint8Array(CHUNK));
    const hasher = whole ? undefined : sha256Hasher();
    let total = 0;
    for (;;) {
      const offset = whole ? total : 0;
      const room = target.length - offset;
      const n = readSync(fd, target, offset, room, null);
      if (n === 0) break;
      total += n;
      hasher?.update(n === CHUNK ? target : target.subarray(0, n));
      if (total > expectBytes) break;
      // A short read of a regular file stops at its end: no second read just to see 0.
      if (total === expectBytes && n < room) break;
    }
    if (total !== expectBytes) return { kind: "size", size: total, mode };
    if (hasher) return { kind: "file", sha256: hasher.digestHex(), size: total, mode };
    const bytes = target.subarray(0, total);
    return { kind: "file", sha256: sha256Hex(bytes), size: total, mode, ...(keep ? { bytes } : {}) };
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
  const { known, stamps, keep } = options;
  const problems: FileProblem[] = [];
  const kept = new Map<string, Uint8Array>();
  const add = (kind: FileProblemKind, path: string, what: string) =>
    problems.push({ kind, path, message: `${what}: ${path}` });
  let rootStat;
  try {
    rootStat = lstatSync(root);
  } catch {
    for (const f of files) add("missing", f.path, "Installed file missing");
    return { ok: false, checked: 0, problems, kept };
  }
  if (!rootStat.isDirectory()) {
    add(
      rootStat.isSymbolicLink() ? "symlink" : "special",
      ".",
      "The installed directory was replaced by a link or a file",
    );
    return { ok: false, checked: 0, problems, kept };
  }

  // One walk of what is there, by directory entry type (no link is followed). Paths are joined
  // by hand: every one is the root and directory entry names (never "/", "." or ".."), which
  // is what path.join would give for them, without its normalising pass on 2,000 files.
  const base = root.endsWith("/") ? root : `${root}/`;
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
        walk(`${abs}/${d.name}`, r);
      } else present.set(r, d.isFile() ? "file" : d.isSymbolicLink() ? "symlink" : "special");
    }
  };
  walk(root, "");

  const expectedDirs = new Set<string>();
  let checked = 0;
  for (const f of files) {
    for (let slash = f.path.indexOf("/"); slash !== -1; slash = f.path.indexOf("/", slash + 1))
      expectedDirs.add(f.path.slice(0, slash));
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
    // Only a path the walk found (names it read, through no link) gets here.
    const abs = base + f.path;
    // Stamped before hashing: a change made while the file is read shows in the next stamp.
    const before = known || stamps ? statStamp(abs) : undefined;
    const keepThis = keep?.has(f.path) === true;
    if (before !== undefined && !keepThis && known?.get(f.path) === before) {
      stamps?.set(f.path, before);
      continue;
    }
    const got = hashFile(abs, f.bytes, keepThis);
    checked++;
    if (got.kind === "file") {
      if (got.sha256 !== f.sha256) add("changed", f.path, "Installed file changed");
      else if (got.mode !== f.mode)
        add("mode", f.path, `Installed file mode changed to ${got.mode.toString(8)} (recorded ${f.mode.toString(8)})`);
      else {
        if (got.bytes !== undefined) kept.set(f.path, got.bytes);
        if (before !== undefined) stamps?.set(f.path, before);
      }
    } else if (got.kind === "size") add("changed", f.path, "Installed file changed");
    else if (got.kind === "symlink") add("symlink", f.path, "Installed file replaced by a symbolic link");
    else if (got.kind === "special") add("special", f.path, "Installed file replaced by a special file");
    else add("missing", f.path, "Installed file missing");
  }
  for (const [rel, type] of present) {
    if (type === "dir" && expectedDirs.has(rel)) continue;
    add(
      "extra",
      rel,
      type === "symlink"
        ? "Unexpected symbolic link in the installed bundle"
        : type === "dir"
          ? "Unexpected directory in the installed bundle"
          : "Unexpected file in the installed bundle",
    );
  }
  return { ok: problems.length === 0, checked, problems, kept };
}
