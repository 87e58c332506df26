import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { atomicTempTarget, sweep, type Leftover } from "../store/leftovers.ts";
import type { C2Layout } from "./paths.ts";
import { holdsForeignRecord } from "./foreign-record.ts";

/** Transient names beside the installed bundles (c2-notes §4.1). */
export const STAGE = /^\.(.+)\.stage-[0-9a-f-]+$/;
export const BACKUP = /^\.(.+)\.backup-[0-9a-f-]+$/;
export const TRASH = /^\.(.+)\.trash-[0-9a-f-]+$/;

/** Files the C2 store writes atomically; a temp sibling of one of them is a leftover. */
const ATOMIC_FILES = new Set([
  "plugin-config.json",
  "plugin-config.last-good.json",
  "installed-plugin.json",
  "installed-index.json",
]);

export function uniqueSuffix(): string {
  return crypto.randomUUID();
}

const list = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/**
 * The C2 layout adapter's leftover scan: temp siblings of atomic writes in the data root and in
 * each bundle home; under plugins/, staging and trash dirs, and backups. A backup whose bundle
 * is missing was taken right before the commit rename, so it is put back (the store returns
 * to "before"); any other backup belongs to a committed change and is removed.
 */
export function scanC2Leftovers(layout: C2Layout): Leftover[] {
  const names = list(layout.plugins);
  const out: Leftover[] = [];
  const homes = names
    .filter((n) => !n.startsWith("."))
    .map((n) => join(layout.plugins, n))
    .filter((home) => !holdsForeignRecord(home));
  for (const dir of [layout.root, ...homes]) {
    for (const entry of list(dir)) {
      const target = atomicTempTarget(entry);
      if (target !== undefined && ATOMIC_FILES.has(target))
        out.push({ kind: "temp", name: entry, path: join(dir, entry) });
    }
  }
  for (const name of names) {
    const path = join(layout.plugins, name);
    if ((STAGE.test(name) || BACKUP.test(name)) && holdsForeignRecord(path)) continue;
    if (STAGE.test(name)) out.push({ kind: "staging", name, path });
    else if (TRASH.test(name)) out.push({ kind: "trash", name, path });
    else {
      const backup = BACKUP.exec(name);
      if (!backup) continue;
      const home = join(layout.plugins, backup[1]);
      out.push({ kind: "backup", name, path, ...(existsSync(home) ? {} : { restoreTo: home }) });
    }
  }
  return out;
}

/**
 * Finishes what a killed command left, under the C2 lock, before anything else (every such
 * write happens under that lock, so none of them is in progress). Returns what was done.
 */
export function cleanLeftovers(layout: C2Layout): string[] {
  return sweep(scanC2Leftovers(layout)).map((l) =>
    l.restoreTo ? `restored ${l.restoreTo.slice(layout.plugins.length + 1)}` : `removed ${l.name}`,
  );
}

/**
 * Readers (list, inspect, the runtime) must not see a bundle vanish because an update was
 * killed between its two commit renames. When a backup has no bundle beside it and the C2
 * lock is not held (so no install is between those renames right now), the backup is put
 * back, exactly as the next mutating command would. A lock left by a dead process is stale,
 * and the reader restores then too: nobody can be mid-commit.
 */
export function restoreInterruptedCommits(layout: C2Layout, names: string[], lockHeld: () => boolean): boolean {
  const orphans: Leftover[] = [];
  for (const name of names) {
    if (!name.startsWith(".") || !name.includes(".backup-")) continue;
    const m = BACKUP.exec(name);
    if (m !== null && !names.includes(m[1]) && !holdsForeignRecord(join(layout.plugins, name)))
      orphans.push({ kind: "backup", name, path: join(layout.plugins, name), restoreTo: join(layout.plugins, m[1]) });
  }
  if (orphans.length === 0 || lockHeld()) return false;
  return sweep(orphans).length > 0;
}
