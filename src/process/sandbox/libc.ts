/**
 * The few libc entry points the sandbox stage needs, through bun:ffi (no compiler, also inside
 * a `bun build --compile` binary). Opened on first use; Linux with glibc only, null elsewhere.
 * Kernel calls without a libc wrapper (Landlock) go through `syscall(2)`: on x86_64 and
 * aarch64 Linux its integer arguments travel in registers as for any other call.
 */

export interface Libc {
  syscall(nr: number, a: number | bigint, b: number | bigint, c: number | bigint, d: number | bigint): number;
  prctl(option: number, a: number | bigint, b: number | bigint, c: number | bigint, d: number | bigint): number;
  open(path: Uint8Array, flags: number, mode?: number): number;
  close(fd: number): number;
  mkdir(path: Uint8Array, mode: number): number;
  /** realpath(3) into `resolved` (PATH_MAX bytes); 0 on failure. */
  realpath(path: Uint8Array, resolved: Uint8Array): number;
  execve(path: Uint8Array, argv: BigUint64Array, envp: BigUint64Array): number;
  mount(
    source: Uint8Array,
    target: Uint8Array,
    fstype: Uint8Array | null,
    flags: number,
    data: Uint8Array | null,
  ): number;
  socket(domain: number, type: number, protocol: number): number;
  ioctl(fd: number, request: number, arg: Uint8Array): number;
  /** The errno of the last failed call on this thread. */
  errno(): number;
  /** The address of a buffer, for structures passed by pointer. */
  address(buffer: ArrayBufferView): bigint;
}

let libc: Libc | null | undefined;

export function openLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== "linux") return libc;
  try {
    const { dlopen, FFIType, ptr, read } = require("bun:ffi") as typeof import("bun:ffi");
    const lib = dlopen("libc.so.6", {
      syscall: { args: [FFIType.i64, FFIType.i64, FFIType.i64, FFIType.i64, FFIType.i64], returns: FFIType.i64 },
      prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
      open: { args: [FFIType.ptr, FFIType.i32, FFIType.u32], returns: FFIType.i32 },
      close: { args: [FFIType.i32], returns: FFIType.i32 },
      mkdir: { args: [FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
      realpath: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.ptr },
      execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
      mount: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.u64, FFIType.ptr], returns: FFIType.i32 },
      socket: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      ioctl: { args: [FFIType.i32, FFIType.u64, FFIType.ptr], returns: FFIType.i32 },
      __errno_location: { args: [], returns: FFIType.ptr },
    });
    const s = lib.symbols;
    libc = {
      syscall: (nr, a, b, c, d) => Number(s.syscall(nr, a, b, c, d)),
      prctl: (o, a, b, c, d) => s.prctl(o, a, b, c, d) as number,
      open: (path, flags, mode = 0) => s.open(ptr(path), flags, mode) as number,
      close: (fd) => s.close(fd) as number,
      mkdir: (path, mode) => s.mkdir(ptr(path), mode) as number,
      realpath: (path, resolved) => Number(s.realpath(ptr(path), ptr(resolved)) ?? 0),
      execve: (path, argv, envp) => s.execve(ptr(path), ptr(argv), ptr(envp)) as number,
      socket: (domain, type, protocol) => s.socket(domain, type, protocol) as number,
      ioctl: (fd, request, arg) => s.ioctl(fd, request, ptr(arg)) as number,
      mount: (source, target, fstype, flags, data) =>
        s.mount(ptr(source), ptr(target), fstype ? ptr(fstype) : null, flags, data ? ptr(data) : null) as number,
      errno: () => read.i32(s.__errno_location() as any, 0),
      address: (buffer) => BigInt(ptr(buffer as DataView)),
    };
  } catch {
    // musl or an unusual libc name: the sandbox reports itself unavailable.
  }
  return libc;
}

/**
 * A NUL-terminated copy of a string, as C wants it. A string holding a NUL is refused: C would
 * read it as the shorter string before it (a Landlock rule for `/a\0/b` would grant all of `/a`).
 */
export function cString(s: string): Uint8Array {
  if (s.includes("\0")) throw new Error(`refused a path or argument holding a NUL byte: ${JSON.stringify(s)}`);
  const bytes = new TextEncoder().encode(s);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

/** A NULL-terminated array of pointers to C strings; `keep` holds the strings alive. */
export function cStringArray(c: Libc, items: readonly string[], keep: Uint8Array[]): BigUint64Array {
  const array = new BigUint64Array(items.length + 1);
  for (let i = 0; i < items.length; i++) {
    const s = cString(items[i] as string);
    keep.push(s);
    array[i] = c.address(s);
  }
  return array;
}

const PATH_MAX = 4096;
let buffers: { path: Uint8Array; resolved: Uint8Array; encoder: TextEncoder; decoder: TextDecoder } | undefined;

/** The path with every link resolved (libc's realpath), undefined when it does not exist or cannot be resolved. */
export function realPath(c: Libc, path: string): string | undefined {
  buffers ??= {
    path: new Uint8Array(PATH_MAX * 3 + 1),
    resolved: new Uint8Array(PATH_MAX),
    encoder: new TextEncoder(),
    decoder: new TextDecoder(),
  };
  const { written } = buffers.encoder.encodeInto(path, buffers.path);
  if (written >= PATH_MAX) return undefined;
  buffers.path[written] = 0;
  if (c.realpath(buffers.path, buffers.resolved) === 0) return undefined;
  return buffers.decoder.decode(buffers.resolved.subarray(0, buffers.resolved.indexOf(0)));
}
