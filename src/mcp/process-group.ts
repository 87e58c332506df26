/**
 * Kills a whole process group led by `pid` (spawned with `detached: true`), so grandchildren
 * that ignore SIGTERM or outlive their parent go too. ESRCH (nobody left) is not an error.
 */
export function killProcessGroup(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(-pid, signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
  }
}

/** True while any process of the group still exists (zombies included). */
export function processGroupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
