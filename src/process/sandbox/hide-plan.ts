import type { StageSpec } from "./stage-spec.ts";

/** Where other programs keep sockets and secrets: covered in the sandbox's mount namespace (src/process/sandbox/hide.ts). */
export const HIDDEN_DIRS = ["/tmp", "/var/tmp", "/run", "/dev/shm"];

/** The folders a process's namespace covers: the home, the invoking TMPDIR and HIDDEN_DIRS (absolute ones only). */
export function coveredFolders(hostEnv: Record<string, string | undefined>): string[] {
  return [hostEnv.HOME, hostEnv.TMPDIR, ...HIDDEN_DIRS].filter(
    (p): p is string => typeof p === "string" && p.startsWith("/"),
  );
}

/**
 * What the stage covers (of `cover`, as real paths) and what of the spec's paths it binds back
 * beneath them, each resolved by `real` (undefined for a path that does not exist). Run by the
 * stage itself, with libc's realpath: node:fs would cost it more than the whole plan.
 */
export function hidePlan(
  spec: Pick<StageSpec, "read" | "readNoExec" | "devices" | "write">,
  cover: readonly string[],
  real: (path: string) => string | undefined,
): { hide: string[]; keep: string[] } {
  // Plain loops: the stage is a fresh VM, where each array built-in (map, filter, some, sort, a
  // Set) pays for its first compilation, together more than the plan itself.
  const kept: string[] = [];
  for (const list of [spec.read, spec.readNoExec, spec.devices, spec.write])
    for (const path of list) {
      const r = real(path);
      if (r !== undefined) kept.push(r);
    }
  const covered: string[] = [];
  for (const path of cover) {
    const r = real(path);
    // A grant of a hidden folder itself (or of one holding it) keeps that folder as it is.
    if (r !== undefined && r !== "/" && !beneathAny(r, kept)) covered.push(r);
  }
  const hide = topmost(covered);
  // No kept path is a covered folder itself (those are not covered): beneath one is strictly beneath.
  const beneath: string[] = [];
  for (const k of kept) if (beneathAny(k, hide)) beneath.push(k);
  return { hide, keep: topmost(beneath) };
}

const within = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);

function beneathAny(path: string, folders: readonly string[]): boolean {
  for (const folder of folders) if (within(path, folder)) return true;
  return false;
}

/** The paths that are not beneath another one of the list, each once, shortest first. */
function topmost(paths: readonly string[]): string[] {
  const sorted: string[] = [];
  for (const path of paths) {
    if (sorted.includes(path)) continue;
    // A stable insertion by length: a path's folders come before it.
    let at = sorted.length;
    while (at > 0 && (sorted[at - 1] as string).length > path.length) at--;
    sorted.splice(at, 0, path);
  }
  const out: string[] = [];
  for (const path of sorted) if (!beneathAny(path, out)) out.push(path);
  return out;
}
