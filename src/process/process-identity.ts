import { readFileSync } from "node:fs";

/**
 * The kernel's start time of a process (clock ticks since boot, field 22 of /proc/<pid>/stat),
 * or undefined where /proc is not there. A pid that is alive but started at a different time
 * is a reused pid, so a lock recorded by the original process is still stale.
 */
export function processStartTicks(pid: number | "self"): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // The command name (field 2) is in parentheses and may itself contain spaces or ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the name, the first field is field 3 (state); start time is field 22.
    const ticks = fields[22 - 3];
    return ticks && /^\d+$/.test(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** True when a process with that pid exists on this host (EPERM means it exists, owned by someone else). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let ownStart: string | undefined | null = null;
/** Our own start ticks, read once. */
export function ownStartTicks(): string | undefined {
  if (ownStart === null) ownStart = processStartTicks("self");
  return ownStart;
}
