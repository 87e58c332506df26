import { lstatSync } from "node:fs";
import { dirname } from "node:path";
import { GjcError } from "./errors.ts";
import { ExitCode } from "./exit-codes.ts";

/**
 * The one place an operating-system refusal becomes a gjc error. A write that the machine
 * refuses (permissions, a read-only mount, a full disk, a file where a folder must be) is not a
 * bug in gjc: it gets a stable code, exit 1, the path and what to do next. The CLI's top-level
 * catch passes every error that is not a GjcError through `osErrorFrom`, so no verb can miss it;
 * code that wraps file-system errors in its own message (the scope lock, the scaffold writer)
 * asks it first so the condition keeps its code.
 */

interface ErrnoLike {
  code?: unknown;
  path?: unknown;
  dest?: unknown;
  syscall?: unknown;
}

export type OsErrorCode = "permission_denied" | "read_only" | "disk_full" | "not_a_directory";

const BY_ERRNO: Record<string, OsErrorCode> = {
  EACCES: "permission_denied",
  EPERM: "permission_denied",
  EROFS: "read_only",
  ENOSPC: "disk_full",
  EDQUOT: "disk_full",
  ENOTDIR: "not_a_directory",
};

/**
 * Only file-system calls are the machine refusing a write; an EPERM from kill() or a failed
 * spawn is something else (and stays whatever its caller made of it).
 */
const NOT_FILE_SYSCALLS = new Set([
  "kill",
  "spawn",
  "spawnSync",
  "uv_spawn",
  "connect",
  "listen",
  "bind",
  "getaddrinfo",
]);

const MOVE_IT =
  "or point gjc at a writable place (GJC_USER_DIR, GJC_C2_DATA_DIR, --project <dir>, or another output path)";

/**
 * The gjc error for an OS error, or undefined when `error` is not one of the conditions above
 * (then it stays whatever it was: usually a real bug, exit 70). `fallbackPath` names the path
 * when the OS error carries none (some writes report only the syscall).
 */
export function osErrorFrom(error: unknown, fallbackPath?: string): GjcError | undefined {
  if (!error || typeof error !== "object") return undefined;
  const e = error as ErrnoLike;
  const errno = typeof e.code === "string" ? e.code : undefined;
  if (!errno) return undefined;
  const path = typeof e.path === "string" ? e.path : fallbackPath;
  const syscall = typeof e.syscall === "string" ? e.syscall : undefined;
  if (syscall && NOT_FILE_SYSCALLS.has(syscall)) return undefined;
  let code = BY_ERRNO[errno];
  // mkdir of a path that exists as a file: the same condition as ENOTDIR for the user.
  if (!code && errno === "EEXIST" && syscall === "mkdir" && path && !isDirectory(path)) code = "not_a_directory";
  if (!code) return undefined;
  const where = path ?? "a file gjc needed to write";
  const details = { path: path ?? null, errno, ...(syscall ? { syscall } : {}) };
  switch (code) {
    case "permission_denied":
      return new GjcError({
        code,
        message: `Permission denied: gjc may not ${verbFor(syscall)} ${where} (${errno}).`,
        hint: `Make ${path ? dirname(path) : "the folder"} writable for this user (check its owner and mode with "ls -ld"), ${MOVE_IT}; nothing was changed.`,
        details,
        exit: ExitCode.failed,
      });
    case "read_only":
      return new GjcError({
        code,
        message: `${where} is on a read-only file system (${errno}).`,
        hint: `Remount it read-write, ${MOVE_IT}; nothing was changed.`,
        details,
        exit: ExitCode.failed,
      });
    case "disk_full":
      return new GjcError({
        code,
        message: `No space left ${errno === "EDQUOT" ? "in your disk quota" : "on the device"} while writing ${where} (${errno}).`,
        hint: "Free some space (or raise the quota) and run the command again; what was there before is unchanged.",
        details,
        exit: ExitCode.failed,
      });
    case "not_a_directory": {
      const blocker = path ? fileBlocking(path) : undefined;
      return new GjcError({
        code,
        message:
          blocker && blocker !== path
            ? `${blocker} is a file, but gjc needs a directory there to reach ${path} (${errno}).`
            : `${blocker ?? where} is a file where gjc needs a directory (${errno}).`,
        hint: "Move or remove that file, or choose another location; nothing was changed.",
        details: { ...details, ...(blocker ? { blocker } : {}) },
        exit: ExitCode.failed,
      });
    }
  }
}

/**
 * Runs a write so its OS errors name `path` when they reach the user: writeSync on a descriptor
 * reports ENOSPC with no path at all, and a temp sibling's name (`.x.tgz.tmp-123-ab`) means
 * nothing to the user, so `replace` names the file being written instead.
 */
export function writingTo<T>(path: string, write: () => T, opts: { replace?: boolean } = {}): T {
  try {
    return write();
  } catch (error) {
    if (error && typeof error === "object" && (opts.replace || typeof (error as ErrnoLike).path !== "string"))
      (error as ErrnoLike).path = path;
    throw error;
  }
}

/** True when `error` is the OS telling a writer that the reader closed the pipe. */
export function isBrokenPipe(error: unknown): boolean {
  return !!error && typeof error === "object" && (error as ErrnoLike).code === "EPIPE";
}

function verbFor(syscall: string | undefined): string {
  if (syscall === "mkdir") return "create the folder";
  if (syscall === "rename" || syscall === "link" || syscall === "unlink" || syscall === "rmdir") return "change";
  if (syscall === "open" || syscall === "write") return "write";
  return "write to";
}

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The nearest existing entry on the way to `path` that is not a directory (the file in the way). */
function fileBlocking(path: string): string | undefined {
  for (let p = path; ; p = dirname(p)) {
    try {
      const st = lstatSync(p);
      if (!st.isDirectory()) return p;
    } catch {
      // missing: look further up
    }
    if (dirname(p) === p) return undefined;
  }
}
