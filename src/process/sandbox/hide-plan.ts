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
  const kept = [...spec.read, ...spec.readNoExec, ...spec.devices, ...spec.write]
    .map(real)
    .filter((p): p is string => p !== undefined);
  // A grant of a hidden folder itself (or of one holding it) keeps that folder as it is.
  const hide = topmost(
    cover.map(real).filter((p): p is string => p !== undefined && p !== "/" && !kept.some((k) => within(p, k))),
  );
  const keep = topmost(kept.filter((k) => hide.some((h) => within(k, h) && k !== h)));
  return { hide, keep };
}

const within = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);

/** The paths that are not beneath another one of the list, each once. */
function topmost(paths: string[]): string[] {
  const unique = [...new Set(paths)].sort((a, b) => a.length - b.length);
  return unique.filter((p, i) => !unique.slice(0, i).some((q) => within(p, q)));
}
