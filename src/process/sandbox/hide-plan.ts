import { realpathSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { StageSpec } from "./stage-spec.ts";

/** Where other programs keep sockets and secrets: covered in the sandbox's mount namespace (src/process/sandbox/hide.ts). */
const HIDDEN_DIRS = ["/tmp", "/var/tmp", "/run", "/dev/shm"];

/** What the stage covers (the home, its TMPDIR, /tmp, /var/tmp, /run, /dev/shm) and what of the spec it binds back beneath them. */
export function hidePlan(
  spec: StageSpec,
  hostEnv: Record<string, string | undefined>,
  temp: string,
): { hide: string[]; keep: string[] } {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return undefined;
    }
  };
  const kept = [...spec.read, ...spec.readNoExec, ...spec.devices, ...spec.write, temp]
    .map(real)
    .filter((p): p is string => p !== undefined);
  const candidates = [hostEnv.HOME, hostEnv.TMPDIR, ...HIDDEN_DIRS]
    .filter((p): p is string => typeof p === "string" && isAbsolute(p))
    .map(real);
  // A grant of a hidden folder itself (or of one holding it) keeps that folder as it is.
  const hide = topmost(
    candidates.filter((p): p is string => p !== undefined && p !== "/" && !kept.some((k) => within(p, k))),
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
