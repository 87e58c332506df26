import { cString, type Libc } from "./libc.ts";

/**
 * Inside the sandbox's own mount namespace: empty, private file systems over the places where
 * other programs keep their sockets and secrets (the home, /tmp, /run, /dev/shm), with only the
 * profile's paths bound back at their own names. Landlock cannot stop a `connect` to a UNIX
 * socket that exists at a path (an ssh or gpg agent, a desktop bus, docker.sock); a socket that
 * is not there cannot be reached. Runs in the stage before Landlock, which then forbids any
 * further change of the mount topology (and seccomp refuses mount and umount).
 *
 * Only libc, no node:fs: loading node:fs and node:path costs the stage about 2 ms, more than
 * everything it does here.
 */
const MS_NOSUID = 2;
const MS_NODEV = 4;
const MS_BIND = 4096;
const MS_REC = 16384;
const O_WRONLY = 0o1;
const O_CREAT = 0o100;
const O_APPEND = 0o2000;
const O_DIRECTORY = 0o200000;
const O_PATH = 0o10000000;
const O_CLOEXEC = 0o2000000;
const ENOTDIR = 20;

export interface HidePlan {
  /** Directories covered with an empty tmpfs. */
  hide: string[];
  /** Paths beneath them that stay visible (bound back from the real file system). */
  keep: string[];
}

export function hideAndKeep(c: Libc, plan: HidePlan): void {
  // Hold every kept path (that exists) before it disappears under a tmpfs; bind it back from the held fd.
  const held: { path: string; fd: number; dir: boolean }[] = [];
  try {
    for (const path of plan.keep) {
      const name = cString(path);
      let fd = c.open(name, O_PATH | O_CLOEXEC | O_DIRECTORY);
      const dir = fd >= 0;
      if (!dir && c.errno() === ENOTDIR) fd = c.open(name, O_PATH | O_CLOEXEC);
      if (fd >= 0) held.push({ path, fd, dir });
    }
    for (const dir of plan.hide) {
      if (c.mount(cString("tmpfs"), cString(dir), cString("tmpfs"), MS_NOSUID | MS_NODEV, cString("mode=0755")) !== 0)
        throw new Error(`cannot cover ${dir} (errno ${c.errno()})`);
    }
    for (const { path, fd, dir } of held) {
      if (dir) makeDirs(c, path);
      else {
        makeDirs(c, parentOf(path));
        const file = c.open(cString(path), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o666);
        if (file >= 0) c.close(file);
      }
      if (c.mount(cString(`/proc/self/fd/${fd}`), cString(path), null, MS_BIND | MS_REC, null) !== 0)
        throw new Error(`cannot keep ${path} visible (errno ${c.errno()})`);
    }
  } finally {
    for (const { fd } of held) c.close(fd);
  }
}

/** `mkdir -p` of an absolute path; what cannot be made shows when the bind mount onto it fails. */
function makeDirs(c: Libc, path: string): void {
  let at = 0;
  while (at !== -1) {
    at = path.indexOf("/", at + 1);
    c.mkdir(cString(at === -1 ? path : path.slice(0, at)), 0o777);
  }
}

/** The folder holding an absolute path. */
const parentOf = (path: string) => path.slice(0, Math.max(path.lastIndexOf("/"), 1));
