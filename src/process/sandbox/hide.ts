import { closeSync, mkdirSync, openSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { cString, type Libc } from "./libc.ts";

/**
 * Inside the sandbox's own mount namespace: empty, private file systems over the places where
 * other programs keep their sockets and secrets (the home, /tmp, /run, /dev/shm), with only the
 * profile's paths bound back at their own names. Landlock cannot stop a `connect` to a UNIX
 * socket that exists at a path (an ssh or gpg agent, a desktop bus, docker.sock); a socket that
 * is not there cannot be reached. Runs in the stage before Landlock, which then forbids any
 * further change of the mount topology (and seccomp refuses mount and umount).
 */
const MS_NOSUID = 2;
const MS_NODEV = 4;
const MS_BIND = 4096;
const MS_REC = 16384;
const O_PATH = 0o10000000;
const O_CLOEXEC = 0o2000000;

export interface HidePlan {
  /** Directories covered with an empty tmpfs. */
  hide: string[];
  /** Paths beneath them that stay visible (bound back from the real file system). */
  keep: string[];
}

export function hideAndKeep(c: Libc, plan: HidePlan): void {
  // Hold every kept path before it disappears under a tmpfs; bind it back from the held fd.
  const held = plan.keep.flatMap((path) => {
    try {
      return [{ path, fd: openSync(path, O_PATH | O_CLOEXEC), dir: statSync(path).isDirectory() }];
    } catch {
      return [];
    }
  });
  try {
    for (const dir of plan.hide) {
      if (c.mount(cString("tmpfs"), cString(dir), cString("tmpfs"), MS_NOSUID | MS_NODEV, cString("mode=0755")) !== 0)
        throw new Error(`cannot cover ${dir} (errno ${c.errno()})`);
    }
    for (const { path, fd, dir } of held) {
      if (dir) mkdirSync(path, { recursive: true });
      else {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, "", { flag: "a" });
      }
      if (c.mount(cString(`/proc/self/fd/${fd}`), cString(path), null, MS_BIND | MS_REC, null) !== 0)
        throw new Error(`cannot keep ${path} visible (errno ${c.errno()})`);
    }
  } finally {
    for (const { fd } of held) closeSync(fd);
  }
}
