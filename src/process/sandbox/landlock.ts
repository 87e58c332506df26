import type { Libc } from "./libc.ts";
import { cString } from "./libc.ts";

/**
 * Landlock (Linux ≥ 5.13), the unprivileged file-system and TCP-port confinement. A ruleset
 * names the access rights it handles; everything handled and not granted by a rule is denied
 * to this thread and, across execve, to the program and all its descendants, irrevocably.
 * Each ABI level adds rights: 2 REFER, 3 TRUNCATE, 4 TCP bind/connect, 5 IOCTL_DEV,
 * 6 scoping of abstract UNIX sockets and signals. Rights of a newer ABI are only asked for
 * when the kernel has them, so an older kernel still gets what it can enforce.
 */

const SYS_CREATE_RULESET = 444;
const SYS_ADD_RULE = 445;
const SYS_RESTRICT_SELF = 446;
const CREATE_RULESET_VERSION = 1;
const RULE_PATH_BENEATH = 1;
const RULE_NET_PORT = 2;
const O_PATH = 0o10000000;
const O_CLOEXEC = 0o2000000;
const PR_SET_NO_NEW_PRIVS = 38;

export const FS = {
  execute: 1n << 0n,
  writeFile: 1n << 1n,
  readFile: 1n << 2n,
  readDir: 1n << 3n,
  removeDir: 1n << 4n,
  removeFile: 1n << 5n,
  makeChar: 1n << 6n,
  makeDir: 1n << 7n,
  makeReg: 1n << 8n,
  makeSock: 1n << 9n,
  makeFifo: 1n << 10n,
  makeBlock: 1n << 11n,
  makeSym: 1n << 12n,
  refer: 1n << 13n,
  truncate: 1n << 14n,
  ioctlDev: 1n << 15n,
} as const;

const NET_BIND_TCP = 1n << 0n;
const NET_CONNECT_TCP = 1n << 1n;
const SCOPE_ABSTRACT_UNIX_SOCKET = 1n << 0n;
const SCOPE_SIGNAL = 1n << 1n;

/** Rights that apply to a file (not a directory): a rule on a file may grant only these. */
const FILE_RIGHTS = FS.execute | FS.writeFile | FS.readFile | FS.truncate | FS.ioctlDev;

/** Every file-system right the kernel of this ABI knows. */
export function fsRights(abi: number): bigint {
  let rights = (1n << 13n) - 1n;
  if (abi >= 2) rights |= FS.refer;
  if (abi >= 3) rights |= FS.truncate;
  if (abi >= 5) rights |= FS.ioctlDev;
  return rights;
}

export const READ_RIGHTS = FS.execute | FS.readFile | FS.readDir;

/** The Landlock ABI of this kernel, 0 when it has none (or it is disabled at boot). */
export function landlockAbi(c: Libc): number {
  const abi = c.syscall(SYS_CREATE_RULESET, 0, 0, CREATE_RULESET_VERSION, 0);
  return abi > 0 ? abi : 0;
}

export interface LandlockRules {
  /** Paths and the rights granted beneath each (a file gets the file rights among them). */
  paths: { path: string; rights: bigint }[];
  /** TCP ports this process may connect to; undefined leaves TCP unrestricted by Landlock. */
  connectPorts?: readonly number[];
}

export interface LandlockResult {
  abi: number;
  /** Whether TCP bind/connect is restricted (ABI 4). */
  tcp: boolean;
  /** Whether abstract sockets and signals are scoped (ABI 6). */
  scoped: boolean;
}

/**
 * Restricts the calling thread (the caller execs right after). Paths that do not exist are
 * skipped: a grant of something absent grants nothing. Throws with the failing step.
 */
export function restrictSelf(c: Libc, rules: LandlockRules): LandlockResult {
  const abi = landlockAbi(c);
  if (abi === 0) throw new Error("Landlock is not available in this kernel");
  const handledFs = fsRights(abi);
  const tcp = abi >= 4 && rules.connectPorts !== undefined;
  const scoped = abi >= 6;
  const attr = new BigUint64Array(3);
  attr[0] = handledFs;
  attr[1] = tcp ? NET_BIND_TCP | NET_CONNECT_TCP : 0n;
  attr[2] = scoped ? SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL : 0n;
  const size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
  const ruleset = c.syscall(SYS_CREATE_RULESET, c.address(attr), size, 0, 0);
  if (ruleset < 0) throw new Error(`landlock_create_ruleset failed (errno ${c.errno()})`);
  try {
    for (const { path, rights } of rules.paths) addPathRule(c, ruleset, path, rights & handledFs);
    if (tcp) for (const port of rules.connectPorts ?? []) addPortRule(c, ruleset, port);
    if (c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) !== 0)
      throw new Error(`PR_SET_NO_NEW_PRIVS failed (errno ${c.errno()})`);
    if (c.syscall(SYS_RESTRICT_SELF, ruleset, 0, 0, 0) !== 0)
      throw new Error(`landlock_restrict_self failed (errno ${c.errno()})`);
  } finally {
    c.close(ruleset);
  }
  return { abi, tcp, scoped };
}

function addPathRule(c: Libc, ruleset: number, path: string, rights: bigint): void {
  const fd = c.open(cString(path), O_PATH | O_CLOEXEC);
  if (fd < 0) return;
  try {
    // struct landlock_path_beneath_attr is packed: u64 allowed_access, s32 parent_fd.
    const attr = new DataView(new ArrayBuffer(12));
    attr.setBigUint64(0, rights, true);
    attr.setInt32(8, fd, true);
    let r = c.syscall(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, c.address(attr), 0);
    if (r !== 0) {
      // EINVAL for directory rights on a file: grant the file rights among them.
      attr.setBigUint64(0, rights & FILE_RIGHTS, true);
      r = c.syscall(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, c.address(attr), 0);
    }
    if (r !== 0) throw new Error(`landlock_add_rule failed for ${path} (errno ${c.errno()})`);
  } finally {
    c.close(fd);
  }
}

function addPortRule(c: Libc, ruleset: number, port: number): void {
  const attr = new BigUint64Array(2);
  attr[0] = NET_CONNECT_TCP;
  attr[1] = BigInt(port);
  if (c.syscall(SYS_ADD_RULE, ruleset, RULE_NET_PORT, c.address(attr), 0) !== 0)
    throw new Error(`landlock_add_rule failed for TCP port ${port} (errno ${c.errno()})`);
}
