import { lstatSync, renameSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { fsyncDir } from "../bundle/atomic-fs.ts";

/**
 * What a family's layout adapter finds in its store that does not belong there. The sweep
 * below is the one place that acts on such findings, for both families.
 */
export type LeftoverKind =
  /** A staging dir, trash dir or temp file of a command that died: safe to remove under the lock. */
  | "staging"
  | "trash"
  | "temp"
  /** The previous content of a bundle set aside by a commit that died half-way (C2): put back or removed. */
  | "backup"
  /** A content dir no record points at (a crash before the commit point, or after it). */
  | "orphan"
  /** Something gjc never creates; reported, never removed. */
  | "foreign"
  /** A record whose content directory is gone. */
  | "missing";

export interface Leftover {
  kind: LeftoverKind;
  /** Name inside its directory (or the bundle name for "missing"). */
  name: string;
  path: string;
  /** A backup whose bundle is gone is put back here (the store returns to "before"). */
  restoreTo?: string;
}

/** The kinds the sweep before every mutation removes (or restores); the rest is for doctor. */
export const SWEPT: ReadonlySet<LeftoverKind> = new Set(["staging", "trash", "temp", "backup", "orphan"]);

/** Temp siblings that writeFileAtomic leaves when its writer dies: `.<file>.tmp-<pid>-<rand>`; the target file name, or undefined. */
export function atomicTempTarget(name: string): string | undefined {
  return /^\.(.+)\.tmp-\d+-[0-9a-z]+$/.exec(name)?.[1];
}

/** Removes one leftover without following links (rm of a link removes the link). */
export function removeLeftover(l: Pick<Leftover, "path">): void {
  try {
    const st = lstatSync(l.path);
    if (st.isDirectory()) rmSync(l.path, { recursive: true, force: true });
    else rmSync(l.path, { force: true });
  } catch {}
}

/** Puts a backup back in place; false when another process already did (or removed it). */
function restore(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTEMPTY" || code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Finishes what killed commands left, under the store lock: every swept kind is removed,
 * except a backup with `restoreTo`, which is renamed back. Returns what was acted on; the
 * directories touched are fsync'ed so the cleanup itself survives a crash.
 */
export function sweep(found: readonly Leftover[]): Leftover[] {
  const done: Leftover[] = [];
  const dirs = new Set<string>();
  for (const l of found) {
    if (!SWEPT.has(l.kind)) continue;
    if (l.restoreTo !== undefined) {
      if (!restore(l.path, l.restoreTo)) continue;
    } else removeLeftover(l);
    dirs.add(dirname(l.path));
    done.push(l);
  }
  for (const d of dirs) fsyncDir(d);
  return done;
}
