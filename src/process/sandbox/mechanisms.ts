import { existsSync } from "node:fs";
import { landlockAbi } from "./landlock.ts";
import { openLibc } from "./libc.ts";
import { namespacesOpen } from "./namespaces.ts";
import { seccompArch } from "./seccomp.ts";

/**
 * Which confinement mechanisms this machine gives an unprivileged process, found once per gjc
 * process. `GJC_SANDBOX_WITHOUT` (a comma list of `landlock`, `seccomp`, `netns`) makes gjc
 * act as if a mechanism were missing: how tests and users see what happens on a kernel
 * without it.
 */
export interface SandboxMechanisms {
  /** Landlock ABI version, 0 when absent. */
  landlockAbi: number;
  seccomp: boolean;
  /** util-linux unshare, when it can make a user and network namespace here. */
  unshare: string | null;
  /** What is missing and leaves part of the default profile unenforced, as the README words it. */
  missing: string[];
  /** Mechanisms missing that another one replaces (shown by doctor, not warned about). */
  fallbacks: string[];
  /** Whether the file system is confined at all (without it gjc runs the process unconfined). */
  enforced: boolean;
  /** How the network is closed: a namespace with no route out, Landlock TCP rules, or not at all. */
  network: "namespace" | "landlock-tcp" | "none";
}

export const MECHANISM_NAMES = ["landlock", "seccomp", "netns"] as const;

/** The util-linux unshare, looked for only where the base system installs it. */
const UNSHARE_PATHS = ["/usr/bin/unshare", "/bin/unshare"];
/**
 * A user namespace that keeps our own uid (files the process writes stay ours) with a mount
 * namespace of its own; the stage keeps the namespace's capabilities (`--keep-caps`) only to
 * make its mounts, and the command gets none. `--net` is added when the process has no network.
 */
export const UNSHARE_FLAGS = ["--user", "--map-current-user", "--mount", "--keep-caps"];
export const UNSHARE_NET = "--net";
/** Of those, the ones util-linux added late (2.38 and after): an older unshare refuses them. */
export const LATE_UNSHARE_FLAGS = ["--map-current-user", "--keep-caps"];

const cache = new Map<string, SandboxMechanisms>();

export function sandboxMechanisms(
  env: Record<string, string | undefined>,
  canRun: (argv: string[]) => boolean,
): SandboxMechanisms {
  const without = new Set(
    (env.GJC_SANDBOX_WITHOUT ?? "")
      .split(",")
      .map((w) => w.trim())
      .filter((w) => w !== ""),
  );
  const key = [...without].sort().join(",");
  const known = cache.get(key);
  if (known) return known;
  const found = detect(without, canRun);
  cache.set(key, found);
  return found;
}

function detect(without: Set<string>, canRun: (argv: string[]) => boolean): SandboxMechanisms {
  const missing: string[] = [];
  const fallbacks: string[] = [];
  if (process.platform !== "linux") {
    return {
      landlockAbi: 0,
      seccomp: false,
      unshare: null,
      missing: [`a Linux kernel (this is ${process.platform}: nothing is confined)`],
      fallbacks,
      enforced: false,
      network: "none",
    };
  }
  const libc = openLibc();
  const abi = without.has("landlock") || libc === null ? 0 : landlockAbi(libc);
  if (abi === 0) missing.push("Landlock (files are not confined)");
  const seccomp = !without.has("seccomp") && libc !== null && seccompArch() !== undefined;
  if (!seccomp) missing.push("seccomp (UDP, raw sockets, namespaces and ptrace are not filtered)");
  let unshare: string | null = null;
  if (!without.has("netns")) {
    const found = UNSHARE_PATHS.find((p) => existsSync(p));
    // Trying it costs a process start; the kernel usually answers without one.
    const works = (p: string) =>
      namespacesOpen(p, LATE_UNSHARE_FLAGS) ?? canRun([p, ...UNSHARE_FLAGS, UNSHARE_NET, "--", "/bin/true"]);
    if (found && works(found)) unshare = found;
  }
  const network = unshare !== null ? "namespace" : abi >= 4 ? "landlock-tcp" : "none";
  if (network === "landlock-tcp")
    fallbacks.push(
      "user, network and mount namespaces (util-linux unshare): TCP is closed by Landlock port rules and UDP by seccomp instead; UNIX sockets at paths (agents, docker.sock) stay reachable, and a network grant opens its port on any host",
    );
  if (network === "none")
    missing.push("user and network namespaces, and Landlock TCP rules (ABI 4): the network is open");
  if (unshare !== null && abi > 0 && abi < 6)
    missing.push(
      `Landlock ABI 6 scoping (this kernel has ABI ${abi}: abstract sockets and signals outside are not scoped)`,
    );
  return { landlockAbi: abi, seccomp, unshare, missing, fallbacks, enforced: abi > 0, network };
}

/**
 * Whether what is missing leaves part of the default profile unenforced (`GJC_SANDBOX=require`
 * refuses then). A namespace replacing Landlock TCP rules is not a gap.
 */
export function hasGap(m: SandboxMechanisms): boolean {
  return m.missing.length > 0;
}
