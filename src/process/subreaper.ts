/**
 * Linux child subreaper (prctl PR_SET_CHILD_SUBREAPER). A descendant whose parent dies is
 * normally handed to init, out of our reach: a daemon that called `setsid` and double-forked
 * would outlive the call that started it. With gjc a subreaper such orphans are re-parented to
 * gjc instead, so the launcher can find them (PPid = our pid), kill them and reap them.
 *
 * libc is opened through bun:ffi on first use (also inside a `bun build --compile` binary).
 * On other platforms, or if libc cannot be opened, this is a no-op and `available` says so;
 * the README states what that means (macOS and Windows: a process that leaves its group and
 * session can outlive the call).
 */

const PR_SET_CHILD_SUBREAPER = 36;
const WNOHANG = 1;

interface Libc {
  prctl(option: number, arg2: number, arg3: number, arg4: number, arg5: number): number;
  waitpid(pid: number, status: Int32Array, options: number): number;
}

let libc: Libc | null | undefined;
let enabled = false;

function openLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== "linux") return libc;
  try {
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
    const lib = dlopen("libc.so.6", {
      prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
      waitpid: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
    });
    libc = {
      prctl: (o, a, b, c, d) => lib.symbols.prctl(o, a, b, c, d) as number,
      waitpid: (pid, status, options) => lib.symbols.waitpid(pid, status, options) as number,
    };
  } catch {
    // musl or an unusual libc name: fall back to process groups only.
  }
  return libc;
}

/** Makes this process a child subreaper (once); returns whether it is one. */
export function becomeSubreaper(): boolean {
  if (enabled) return true;
  const c = openLibc();
  enabled = c !== null && c.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) === 0;
  return enabled;
}

/** Collects the exit status of a zombie that was re-parented to us (Bun reaps only its own children). */
export function reap(pid: number): void {
  openLibc()?.waitpid(pid, new Int32Array(1), WNOHANG);
}
