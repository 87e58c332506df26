import { hideAndKeep } from "./hide.ts";
import { hidePlan } from "./hide-plan.ts";
import { loopbackUp } from "./loopback.ts";
import { FS, READ_RIGHTS, restrictSelf } from "./landlock.ts";
import { cStringArray, cString, openLibc, realPath } from "./libc.ts";
import { installFilter } from "./seccomp.ts";
import { SECCOMP_FILTERS } from "./seccomp-filter.generated.ts";
import type { StageSpec } from "./stage-spec.ts";

const PR_CAPBSET_DROP = 24;
const PR_CAP_AMBIENT = 47;
/** Above every capability number Linux has (CAP_LAST_CAP is 40 in 6.x); a drop past the last fails harmlessly. */
const CAPABILITY_COUNT = 64;
const LINUX_CAPABILITY_VERSION_3 = 0x20080522;
const PR_CAP_AMBIENT_CLEAR_ALL = 4;
const WRITE_RIGHTS = (1n << 16n) - 1n;
const DEVICE_RIGHTS = FS.readFile | FS.writeFile | FS.truncate | FS.ioctlDev;

/**
 * The launcher stage: gjc re-executed (Bun.spawn has no pre-exec hook) inside the network
 * namespace the parent chose, restricting itself and then exec'ing the real command. Landlock
 * and seccomp bind the calling thread, and execve keeps that thread's domain and filter while
 * discarding the rest of this (multithreaded) process, so the command starts confined and
 * everything it forks stays so. Returns a message only on failure (the caller prints it and
 * exits 126, as a shell does for a command it cannot run); on success it never returns.
 */
export async function runStage(args: string[], hostEnv: Record<string, string | undefined>): Promise<string> {
  const split = args.indexOf("--");
  if (split !== 1 || args.length < 3) return "usage: gjc __sandbox-stage <spec> -- <command> [args…]";
  let spec: StageSpec;
  try {
    spec = JSON.parse(args[0] as string) as StageSpec;
  } catch {
    return "the sandbox stage got an unreadable spec";
  }
  const argv = args.slice(2);
  const c = openLibc();
  if (c === null) return "the sandbox stage cannot reach libc";
  try {
    if (spec.forwarder) {
      loopbackUp(c);
      // Still with the namespace's capabilities (unshare --keep-caps): a granted port below 1024
      // needs CAP_NET_BIND_SERVICE there to be listened on. Started before the folders are
      // covered: gjc itself may live beneath one of them (a checkout in /tmp, a binary in ~/.local).
      await startForwarder(spec.forwarder, hostEnv);
    }
    if (spec.cover !== null)
      hideAndKeep(
        c,
        hidePlan(spec, spec.cover, (path) => realPath(c, path)),
      );
    // The capabilities the stage kept for the mounts above: the command gets none of them.
    c.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    dropCapabilities(c);
    // Plain loops here and below: in this fresh VM each array built-in pays its first compilation.
    const paths: { path: string; rights: bigint }[] = [];
    const grant = (list: readonly string[], rights: bigint) => {
      for (const path of list) paths.push({ path, rights });
    };
    grant(spec.read, READ_RIGHTS);
    grant(spec.readNoExec, FS.readFile | FS.readDir);
    grant(spec.devices, DEVICE_RIGHTS);
    grant(spec.write, WRITE_RIGHTS);
    restrictSelf(c, { paths, connectPorts: spec.connectPorts ?? undefined });
    if (spec.seccomp) {
      const filter = SECCOMP_FILTERS[process.arch];
      if (filter === undefined) throw new Error(`no seccomp filter for ${process.arch}`);
      installFilter(c, Uint8Array.fromBase64(filter));
    }
  } catch (e) {
    return `the sandbox could not be applied: ${(e as Error).message}`;
  }
  const entries: string[] = [];
  for (const k in hostEnv) if (!(k in spec.setEnv)) entries.push(`${k}=${hostEnv[k] ?? ""}`);
  for (const k in spec.setEnv) entries.push(`${k}=${spec.setEnv[k]}`);
  const keep: Uint8Array[] = [];
  try {
    const envp = cStringArray(c, entries, keep);
    const argvp = cStringArray(c, argv, keep);
    c.execve(cString(argv[0] as string), argvp, envp);
  } catch (e) {
    return `cannot run ${argv[0]}: ${(e as Error).message}`;
  }
  return `cannot run ${argv[0]}: errno ${c.errno()}`;
}

/**
 * Starts the forwarder (src/process/sandbox/forwarder.ts) in this namespace, outside the
 * command's Landlock domain (so the command can neither signal nor trace it), and waits until it
 * listens. It is a child of this process, so of the command after execve: it ends with the tree.
 */
async function startForwarder(argv: string[], hostEnv: Record<string, string | undefined>): Promise<void> {
  // Only stages with network grants start one, so only they load the launcher.
  const { spawnTreeHelper } = await import("../launch.ts");
  const child = spawnTreeHelper(argv, hostEnv);
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the network forwarder did not start");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  if (!text.startsWith("ready")) throw new Error(`the network forwarder did not start: ${text.trim()}`);
}

/**
 * Empties the capability bounding set, so the command gets no capability at exec even where it
 * runs as uid 0 (gjc run by root, or root in the namespace): a uid 0 process otherwise gains
 * every capability the bounding set allows. Needs CAP_SETPCAP, which root and the stage in its
 * user namespace have; where it is missing there is nothing to drop.
 */
function dropCapabilities(c: NonNullable<ReturnType<typeof openLibc>>): void {
  for (let cap = 0; cap < CAPABILITY_COUNT; cap++) c.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  // And the inheritable set, which a uid 0 exec adds to the new permitted set; the effective
  // and permitted sets go too (the stage needs none of them any more).
  const header = new Uint32Array([LINUX_CAPABILITY_VERSION_3, 0]);
  const data = new Uint32Array(6);
  const nr = process.arch === "arm64" ? 91 : 126;
  c.syscall(nr, c.address(header), c.address(data), 0, 0);
}
