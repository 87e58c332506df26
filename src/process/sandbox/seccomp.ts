import type { Libc } from "./libc.ts";

/**
 * The seccomp filter every sandboxed process gets (inherited across execve and fork, never
 * lifted). Landlock confines files, TCP ports, abstract sockets and signals; this closes what
 * it does not see: ways out of or around the sandbox (namespaces, mounts, ptrace and peeking
 * into other processes, io_uring, which bypasses syscall filtering, kernel keyrings and modules,
 * bpf), typing into a terminal (TIOCSTI), and network families: only UNIX, netlink and TCP
 * sockets can be made, so UDP (and with it DNS) and raw sockets are refused.
 */

interface Arch {
  audit: number;
  denied: number[];
  clone: number;
  clone3: number;
  socket: number;
  ioctl: number;
  /** x32 system calls share the x86_64 audit arch with this bit set: refuse them all. */
  x32Bit?: number;
}

const X86_64: Arch = {
  audit: 0xc000003e,
  // ptrace, process_vm_readv/writev, mount, umount2, pivot_root, chroot, unshare, setns,
  // bpf, keyctl, add_key, request_key, perf_event_open, kexec_load, kexec_file_load,
  // init_module, finit_module, delete_module, userfaultfd, open_by_handle_at, swapon,
  // swapoff, reboot, acct, iopl, ioperm, syslog, quotactl, io_uring_setup/enter/register,
  // open_tree, move_mount, fsopen, fsconfig, fsmount, fspick, mount_setattr.
  denied: [
    101, 310, 311, 165, 166, 155, 161, 272, 308, 321, 250, 248, 249, 298, 246, 320, 175, 313, 176, 323, 304, 167, 168,
    169, 163, 172, 173, 103, 179, 425, 426, 427, 428, 429, 430, 431, 432, 433, 442,
  ],
  clone: 56,
  clone3: 435,
  socket: 41,
  ioctl: 16,
  x32Bit: 0x40000000,
};

const AARCH64: Arch = {
  audit: 0xc00000b7,
  denied: [
    117, 270, 271, 40, 39, 41, 51, 97, 268, 280, 219, 217, 218, 241, 104, 294, 105, 273, 106, 282, 265, 224, 225, 142,
    89, 116, 60, 425, 426, 427, 428, 429, 430, 431, 432, 433, 442,
  ],
  clone: 220,
  clone3: 435,
  socket: 198,
  ioctl: 29,
};

/** The architectures the filter is written for, by `process.arch`. */
export const SECCOMP_ARCHES: Readonly<Record<string, Arch>> = { x64: X86_64, arm64: AARCH64 };

export function seccompArch(): Arch | undefined {
  return SECCOMP_ARCHES[process.arch];
}

const EPERM = 1;
const EACCES = 13;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;
const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
const SOCK_STREAM = 1;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
/** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET | NEWTIME */
const CLONE_NEW_ANY =
  0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const retErrno = (errno: number) => 0x00050000 | errno;

// Offsets in struct seccomp_data: nr, arch, instruction pointer, args[6] (low word first).
const NR = 0;
const ARCH = 4;
const arg = (i: number) => 16 + 8 * i;

type Label = string;
type Insn =
  | { op: "ld"; offset: number }
  | { op: "and"; k: number }
  | { op: "jeq" | "jge" | "jset"; k: number; jt: Label | 0; jf: Label | 0 }
  | { op: "ret"; k: number }
  | { op: "label"; name: Label };

const OPCODE = { ld: 0x20, and: 0x54, jeq: 0x15, jge: 0x35, jset: 0x45, ret: 0x06 } as const;

/** The filter as classic BPF (struct sock_filter: u16 code, u8 jt, u8 jf, u32 k). */
export function buildFilter(a: Arch): Uint8Array {
  const p: Insn[] = [];
  const eperm = retErrno(EPERM);
  p.push({ op: "ld", offset: ARCH }, { op: "jeq", k: a.audit, jt: 0, jf: "kill" }, { op: "ld", offset: NR });
  if (a.x32Bit !== undefined) p.push({ op: "jge", k: a.x32Bit, jt: "kill", jf: 0 });
  for (const nr of a.denied) p.push({ op: "jeq", k: nr, jt: "eperm", jf: 0 });
  p.push(
    { op: "jeq", k: a.clone3, jt: "enosys", jf: 0 },
    { op: "jeq", k: a.clone, jt: "clone", jf: 0 },
    { op: "jeq", k: a.socket, jt: "socket", jf: 0 },
    { op: "jeq", k: a.ioctl, jt: "ioctl", jf: 0 },
    { op: "ret", k: RET_ALLOW },
    // clone: no new namespaces (clone3 is refused with ENOSYS, so libc falls back to clone).
    { op: "label", name: "clone" },
    { op: "ld", offset: arg(0) },
    { op: "jset", k: CLONE_NEW_ANY, jt: "eperm", jf: "allow" },
    // socket(domain, type, protocol)
    { op: "label", name: "socket" },
    { op: "ld", offset: arg(0) },
    { op: "jeq", k: AF_UNIX, jt: "allow", jf: 0 },
    { op: "jeq", k: AF_NETLINK, jt: "allow", jf: 0 },
    { op: "jeq", k: AF_INET, jt: "inet", jf: 0 },
    { op: "jeq", k: AF_INET6, jt: "inet", jf: 0 },
    { op: "ret", k: retErrno(EAFNOSUPPORT) },
    { op: "label", name: "inet" },
    { op: "ld", offset: arg(1) },
    { op: "and", k: 0xf },
    { op: "jeq", k: SOCK_STREAM, jt: "allow", jf: 0 },
    { op: "ret", k: retErrno(EACCES) },
    // ioctl(fd, request): no pushing input into a terminal
    { op: "label", name: "ioctl" },
    { op: "ld", offset: arg(1) },
    { op: "jeq", k: TIOCSTI, jt: "eperm", jf: 0 },
    { op: "jeq", k: TIOCLINUX, jt: "eperm", jf: "allow" },
    { op: "label", name: "allow" },
    { op: "ret", k: RET_ALLOW },
    { op: "label", name: "eperm" },
    { op: "ret", k: eperm },
    { op: "label", name: "enosys" },
    { op: "ret", k: retErrno(ENOSYS) },
    { op: "label", name: "kill" },
    { op: "ret", k: RET_KILL_PROCESS },
  );
  return assemble(p);
}

function assemble(program: Insn[]): Uint8Array {
  const at = new Map<Label, number>();
  const code: Exclude<Insn, { op: "label" }>[] = [];
  for (const insn of program) {
    if (insn.op === "label") at.set(insn.name, code.length);
    else code.push(insn);
  }
  const out = new DataView(new ArrayBuffer(code.length * 8));
  code.forEach((insn, i) => {
    const jump = (target: Label | 0) => {
      if (target === 0) return 0;
      const offset = (at.get(target) ?? -1) - i - 1;
      if (offset < 0 || offset > 255) throw new Error(`seccomp filter: bad jump to ${target}`);
      return offset;
    };
    const base = i * 8;
    const k = insn.op === "ld" ? insn.offset : insn.k;
    out.setUint16(base, OPCODE[insn.op], true);
    out.setUint8(base + 2, insn.op === "jeq" || insn.op === "jge" || insn.op === "jset" ? jump(insn.jt) : 0);
    out.setUint8(base + 3, insn.op === "jeq" || insn.op === "jge" || insn.op === "jset" ? jump(insn.jf) : 0);
    out.setUint32(base + 4, k >>> 0, true);
  });
  return new Uint8Array(out.buffer);
}

const PR_SET_NO_NEW_PRIVS = 38;
const PR_SET_SECCOMP = 22;
const SECCOMP_MODE_FILTER = 2;

/**
 * Installs an assembled filter on the calling thread (the caller execs right after). The stage
 * installs the one assembled at build time (seccomp-filter.generated.ts, from buildFilter):
 * assembling it there would cost every launch ~0.3 ms.
 */
export function installFilter(c: Libc, filter: Uint8Array): void {
  // struct sock_fprog: u16 len, (padding), pointer to the instructions.
  const prog = new DataView(new ArrayBuffer(16));
  prog.setUint16(0, filter.length / 8, true);
  prog.setBigUint64(8, c.address(filter), true);
  if (c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) !== 0)
    throw new Error(`PR_SET_NO_NEW_PRIVS failed (errno ${c.errno()})`);
  if (c.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, c.address(prog), 0, 0) !== 0)
    throw new Error(`seccomp filter refused (errno ${c.errno()})`);
}

/** The source of seccomp-filter.generated.ts (scripts/gen-seccomp-filter.ts writes it). */
export function seccompFiltersSource(): string {
  const entries = Object.entries(SECCOMP_ARCHES).map(([name, arch]) => `  ${name}: "${buildFilter(arch).toBase64()}",`);
  return [
    "// Generated by scripts/gen-seccomp-filter.ts from buildFilter (seccomp.ts): do not edit.",
    "/** The assembled seccomp filter (struct sock_filter[], base64) of each supported `process.arch`. */",
    "export const SECCOMP_FILTERS: Readonly<Record<string, string>> = {",
    ...entries,
    "};",
    "",
  ].join("\n");
}
