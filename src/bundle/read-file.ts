import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync } from "node:fs";
import { GjcError } from "../core/errors.ts";

export interface OpenedFile {
  bytes: Uint8Array;
  size: number;
  /** Permission bits as they will be installed: `installableMode` of the file's mode. */
  mode: number;
}

/**
 * The mode a file of a bundle is installed with, whatever the source said (issue #12, class
 * 10): the owner's bits and the read/execute bits of group and other are kept, group/other
 * write, setuid, setgid and sticky never are, so no other local user can change what a host
 * later loads or runs. Archives and git trees already give 0o755/0o644.
 */
export const installableMode = (mode: number): number => mode & 0o755;

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a regular file without following a final symlink: O_NOFOLLOW refuses a link that
 * appeared after we looked, O_NONBLOCK keeps a FIFO swapped in from blocking us, and fstat
 * on the open descriptor is what we trust. The bytes returned are the bytes to hash and copy.
 * `scratch` (optional) is a reusable buffer the bytes are read into instead of a fresh one.
 */
export function readRegularFile(
  absPath: string,
  maxBytes: number,
  label = absPath,
  scratch?: { buffer: Uint8Array },
): OpenedFile {
  let fd: number;
  try {
    fd = openSync(absPath, OPEN_FLAGS);
  } catch (error) {
    throw openError(error, label);
  }
  return readOpened(fd, maxBytes, label, scratch);
}

function openError(error: unknown, label: string): GjcError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ELOOP" || code === "EMLINK") {
    return new GjcError({
      code: "unsafe_path",
      message: `${label} is a symbolic link; links are never followed.`,
      hint: "Ship the file itself, not a link to it.",
    });
  }
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new GjcError({
      code: "missing_file",
      message: `${label} does not exist.`,
      hint: "Check the path, relative to the bundle root.",
    });
  }
  return new GjcError({ code: "unreadable_file", message: `${label} could not be opened (${code ?? "error"}).` });
}

function readOpened(fd: number, maxBytes: number, label: string, scratch?: { buffer: Uint8Array }): OpenedFile {
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      throw new GjcError({
        code: "special_file",
        message: `${label} is not a regular file.`,
        hint: "Bundles may contain only regular files and directories.",
      });
    }
    if (st.size > maxBytes) {
      throw new GjcError({
        code: "file_too_large",
        message: `${label} is ${st.size} bytes, over the ${maxBytes}-byte limit for one file.`,
      });
    }
    // With a scratch buffer the bytes are a view into it, valid until the next read: the
    // collector hashes and drops them, and skipping 5,000 allocations is a third of its time.
    if (scratch && scratch.buffer.length < st.size)
      scratch.buffer = new Uint8Array(Math.max(st.size, scratch.buffer.length * 2));
    const bytes = scratch ? scratch.buffer.subarray(0, st.size) : new Uint8Array(st.size);
    let offset = 0;
    while (offset < st.size) {
      const n = readSync(fd, bytes, offset, st.size - offset, offset);
      if (n === 0) break;
      offset += n;
    }
    if (offset !== st.size) {
      throw new GjcError({
        code: "file_changed",
        message: `${label} changed while it was being read.`,
        hint: "Run the command again once nothing is writing to the bundle.",
      });
    }
    return { bytes, size: st.size, mode: installableMode(st.mode) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Race-proof reads inside a directory tree (issue #12, class 5). A walk that opens
 * `root/a/b/file` by path follows whatever `a` and `b` are at the moment of the open: O_NOFOLLOW
 * guards only the last component, so a parent directory swapped for a symlink after the walk
 * judged it would redirect the read outside the source. Instead every directory is opened
 * with O_DIRECTORY|O_NOFOLLOW relative to its already-open parent, and files relative to their
 * open directory, so each open is anchored to the inode the walk judged, not to a path. Node
 * has no openat(); on Linux `/proc/self/fd/<fd>/<name>` is exactly that (the kernel resolves
 * the fd to its directory, then the one name, without following a final link).
 *
 * Elsewhere (macOS, the BSDs: no /proc) the opens go by path, and after each file read every
 * open ancestor is checked to still be what its path names (same device and inode, not a
 * link); a change refuses the read. That narrows the window rather than closing it: the
 * README says so.
 */
export interface DirHandle {
  fd: number;
  /** Children are opened as `${base}/${name}`: `/proc/self/fd/<fd>` on Linux, else the path. */
  base: string;
  /** The path for messages and for the non-Linux check. */
  path: string;
  dev: number;
  ino: number;
  parent?: DirHandle;
}

const DIR_FLAGS =
  constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);
let procFd: boolean | undefined;
const anchored = () => (procFd ??= process.platform === "linux" && existsSync("/proc/self/fd"));

function handle(fd: number, path: string, parent?: DirHandle): DirHandle {
  const st = fstatSync(fd);
  if (!st.isDirectory()) {
    closeSync(fd);
    throw changed(path);
  }
  return { fd, base: anchored() ? `/proc/self/fd/${fd}` : path, path, dev: st.dev, ino: st.ino, parent };
}

/** The walk's root: the directory the user named (links in its own path are theirs and are followed). */
export function openRootDir(path: string): DirHandle {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
  } catch (error) {
    throw openError(error, path);
  }
  return handle(fd, path);
}

/** A subdirectory the walk judged to be a directory; a link or anything else there now is refused. */
export function openChildDir(parent: DirHandle, name: string, label: string): DirHandle {
  let fd: number;
  try {
    fd = openSync(`${parent.base}/${name}`, DIR_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR" || code === "ENOENT" || code === "EMLINK") throw changed(label);
    throw openError(error, label);
  }
  return handle(fd, `${parent.path}/${name}`, parent);
}

export function closeDir(dir: DirHandle): void {
  closeSync(dir.fd);
}

/** A regular file inside an open directory, read like readRegularFile. */
export function readFileIn(
  dir: DirHandle,
  name: string,
  maxBytes: number,
  label: string,
  scratch?: { buffer: Uint8Array },
): OpenedFile {
  let fd: number;
  try {
    fd = openSync(`${dir.base}/${name}`, OPEN_FLAGS);
  } catch (error) {
    throw openError(error, label);
  }
  const opened = readOpened(fd, maxBytes, label, scratch);
  if (!anchored()) checkChain(dir, label);
  return opened;
}

/** Without anchored opens: every open ancestor still is what its path names. */
function checkChain(dir: DirHandle | undefined, label: string): void {
  for (let d = dir; d !== undefined; d = d.parent) {
    let st;
    try {
      st = lstatSync(d.path);
    } catch {
      throw changed(label);
    }
    if (st.isSymbolicLink() || st.dev !== d.dev || st.ino !== d.ino) throw changed(label);
  }
}

function changed(label: string): GjcError {
  return new GjcError({
    code: "file_changed",
    message: `${label} changed while the bundle was being read (a directory was replaced, for example by a symbolic link).`,
    hint: "Nothing was read from outside the bundle. Run the command again once nothing is changing the bundle directory.",
  });
}

/**
 * Reads clean relative paths (already judged by walkInside) under `root` with every component
 * anchored: the declared-file reads of GJC bundles. Each directory is opened once and kept
 * open until close(), so a file costs one open (not one per path component): the kept handle
 * is anchored to the inode opened below the root, so a parent swapped for a link later still
 * cannot redirect a read, exactly as a fresh chain per file could not.
 */
export class AnchoredTree implements Disposable {
  private readonly dirs = new Map<string, DirHandle>();

  constructor(private readonly root: string) {}

  read(rel: string, maxBytes: number, label: string): OpenedFile {
    const slash = rel.lastIndexOf("/");
    return readFileIn(this.dir(slash < 0 ? "" : rel.slice(0, slash), label), rel.slice(slash + 1), maxBytes, label);
  }

  /** The open handle of `dirRel` ("" is the root), opening the missing components relative to their parent. */
  private dir(dirRel: string, label: string): DirHandle {
    const known = this.dirs.get(dirRel);
    if (known !== undefined) return known;
    const slash = dirRel.lastIndexOf("/");
    const opened =
      dirRel === ""
        ? openRootDir(this.root)
        : openChildDir(this.dir(slash < 0 ? "" : dirRel.slice(0, slash), label), dirRel.slice(slash + 1), label);
    this.dirs.set(dirRel, opened);
    return opened;
  }

  close(): void {
    for (const d of this.dirs.values()) closeDir(d);
    this.dirs.clear();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
