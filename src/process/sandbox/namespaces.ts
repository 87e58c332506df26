import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** util-linux unshare is a small program; a file far larger than this is not it. */
const UNSHARE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Whether util-linux unshare will make the sandbox's namespaces here, answered from what the
 * kernel publishes and what the program holds, with no process
 * started: true where every way the kernel refuses an unprivileged user, mount and network
 * namespace is visibly absent; undefined where only running it can tell (the caller then
 * does). `root` is `/` but in tests.
 *
 * Undefined when:
 * - a seccomp filter is on gjc itself (a container runtime's may refuse unshare);
 * - a namespace limit is 0 or unreadable (no user namespaces in this kernel);
 * - Debian's `unprivileged_userns_clone` or AppArmor's `apparmor_restrict_unprivileged_userns`
 *   is set to refuse or restrict them, or SELinux enforces (a policy may deny them);
 * - the process root is not a mount's root (a chroot: the kernel refuses user namespaces there);
 * - the program lacks one of `lateOptions`, the long options unshare gained late (an older one
 *   refuses the call): each is a NUL-terminated name in its getopt table.
 */
export function namespacesOpen(unshare: string, lateOptions: readonly string[], root = "/"): true | undefined {
  // Most of the switches are absent on most kernels: asking first is cheaper than a thrown ENOENT.
  const read = (path: string) => {
    const at = join(root, path);
    if (!existsSync(at)) return undefined;
    try {
      return readFileSync(at, "utf8").trim();
    } catch {
      return undefined;
    }
  };
  if (!/^Seccomp:\s*0$/m.test(read("proc/self/status") ?? "")) return undefined;
  for (const kind of ["user", "mnt", "net"]) {
    const limit = Number(read(`proc/sys/user/max_${kind}_namespaces`));
    if (!(limit > 0)) return undefined;
  }
  const unprivileged = read("proc/sys/kernel/unprivileged_userns_clone");
  if (unprivileged !== undefined && unprivileged !== "1") return undefined;
  const restricted = read("proc/sys/kernel/apparmor_restrict_unprivileged_userns");
  if (restricted !== undefined && restricted !== "0") return undefined;
  const selinux = read("sys/fs/selinux/enforce");
  if (selinux !== undefined && selinux !== "0") return undefined;
  // mountinfo: id, parent, dev, root within its file system, mount point (relative to our root).
  if (!/^\S+ \S+ \S+ \/ \/ /m.test(read("proc/self/mountinfo") ?? "")) return undefined;
  const program = programBytes(unshare);
  if (program === undefined) return undefined;
  return lateOptions.every((o) => program.includes(`\0${o.replace(/^--/, "")}\0`, 0, "latin1")) ? true : undefined;
}

/** The program's bytes (getopt's option names are NUL-terminated strings in them). */
function programBytes(path: string): Buffer | undefined {
  try {
    return statSync(path).size > UNSHARE_MAX_BYTES ? undefined : readFileSync(path);
  } catch {
    return undefined;
  }
}
