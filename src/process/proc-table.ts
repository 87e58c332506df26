import { readdirSync, readFileSync } from "node:fs";

/** One process as /proc shows it (Linux only). */
export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** R, S, D, Z (zombie), X (dead), … */
  state: string;
}

/** Whether this platform has a /proc we can read the process tree from. */
export const hasProcTable = process.platform === "linux";

/** /proc/<pid>/stat; the command name in parentheses may hold spaces, so parse after the last ")". */
export function readProc(pid: number): ProcEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const [state, ppid, pgid, sid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 4);
  return { pid, ppid: Number(ppid), pgid: Number(pgid), sid: Number(sid), state };
}

/** Every process visible in /proc. */
export function procTable(): ProcEntry[] {
  if (!hasProcTable) return [];
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  return names.filter((n) => /^\d+$/.test(n)).flatMap((n) => readProc(Number(n)) ?? []);
}

export const isLive = (p: ProcEntry) => p.state !== "Z" && p.state !== "X";

/** `root` and everything below it, found through the parent links of one table snapshot. */
export function descendantsOf(table: ProcEntry[], roots: number[]): ProcEntry[] {
  const children = Map.groupBy(table, (p) => p.ppid);
  const found: ProcEntry[] = [];
  const queue = [...roots];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Resident memory of a process in KiB (VmRSS of /proc/<pid>/status), 0 when it is gone or a zombie. */
export function residentKiB(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Whether a live (non-zombie) member of process group `pgid` exists. */
export function groupHasLiveMembers(pgid: number): boolean {
  if (!hasProcTable) return signalGroup(pgid, 0);
  return procTable().some((p) => p.pgid === pgid && isLive(p));
}

/** Signals a whole process group; returns false when nobody is left in it. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Signals one process; a process that is gone already is not an error. */
export function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone
  }
}
