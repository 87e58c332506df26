/**
 * Running a command with some folders made truly read-only, for tests that prove how gjc meets
 * a read-only file system. Tests run as root here, and root ignores permission bits, so a chmod
 * proves nothing: the command runs in its own mount namespace (util-linux `unshare`, as root or
 * in a user namespace) where each folder is bind-mounted onto itself and remounted read-only.
 * The mounts exist only for that child and vanish with it; nothing needs unmounting.
 *
 * Where no mount namespace can be made (no unshare, or user namespaces disabled) a non-root user
 * still gets a real refusal from `chmod a-w` (EACCES → permission_denied); `expectedCode` tells
 * the test which one to expect. Root without mount namespaces cannot be refused either way: then
 * `mode` is "none" and the sweep fails loudly instead of passing without proof.
 */
import { chmodSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

export type ReadOnlyMode = "mount" | "user-mount" | "chmod" | "none";

const MOUNT_SCRIPT = [
  'while [ "$1" != "--" ]; do',
  '  mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" || { echo "read-only: cannot remount $1" >&2; exit 97; }',
  "  shift",
  "done",
  "shift",
  'exec "$@"',
].join("\n");

let detected: ReadOnlyMode | undefined;

function unshareArgs(mode: "mount" | "user-mount"): string[] {
  return mode === "mount"
    ? ["unshare", "--mount", "--propagation", "private", "--"]
    : ["unshare", "--user", "--map-root-user", "--mount", "--propagation", "private", "--"];
}

/** How this machine can make a folder read-only for a child (probed once). */
export function readOnlyMode(): ReadOnlyMode {
  if (detected) return detected;
  const probeDir = process.cwd();
  for (const mode of ["mount", "user-mount"] as const) {
    if (!Bun.which("unshare")) break;
    const r = Bun.spawnSync([...unshareArgs(mode), "sh", "-c", MOUNT_SCRIPT, "sh", probeDir, "--", "true"], {
      stdout: "ignore",
      stderr: "ignore",
    });
    if (r.exitCode === 0) return (detected = mode);
  }
  detected = process.getuid?.() === 0 ? "none" : "chmod";
  return detected;
}

/** The gjc error code a write into a read-only folder must give under the current mode. */
export function expectedCode(): "read_only" | "permission_denied" {
  return readOnlyMode() === "chmod" ? "permission_denied" : "read_only";
}

/**
 * The argv prefix that runs a command with `dirs` read-only (mount modes), or, in chmod mode,
 * an empty prefix after taking write permission away (call `restore()` afterwards either way).
 */
export function readOnly(dirs: string[]): { prefix: string[]; restore(): void } {
  const mode = readOnlyMode();
  if (mode === "none")
    throw new Error("cannot make a read-only folder here: running as root without mount namespaces (unshare)");
  if (mode === "chmod") {
    const all = dirs.flatMap(foldersUnder);
    const modes = all.map((d) => lstatSync(d).mode & 0o7777);
    all.forEach((d) => chmodSync(d, 0o555));
    return { prefix: [], restore: () => all.forEach((d, i) => chmodSync(d, modes[i])) };
  }
  return { prefix: [...unshareArgs(mode), "sh", "-c", MOUNT_SCRIPT, "sh", ...dirs, "--"], restore() {} };
}

function foldersUnder(dir: string): string[] {
  const out = [dir];
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) out.push(...foldersUnder(join(dir, e.name)));
  return out;
}
