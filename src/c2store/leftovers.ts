import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fsyncDir } from "../bundle/atomic-fs.ts";
import type { C2Layout } from "./paths.ts";

/** Transient names beside the installed bundles (c2-notes §4.1). */
export const STAGE = /^\.(.+)\.stage-[0-9a-f-]+$/;
export const BACKUP = /^\.(.+)\.backup-[0-9a-f-]+$/;
export const TRASH = /^\.(.+)\.trash-[0-9a-f-]+$/;

export function uniqueSuffix(): string {
  return crypto.randomUUID();
}

/**
 * Finishes what a killed command left, under the lock, before anything else: a staging dir
 * never committed is deleted; a backup whose bundle is missing was taken right before the
 * commit rename, so it is put back (the scope returns to "before"); any other backup and
 * every trash dir belong to a committed change and are deleted.
 */
export function cleanLeftovers(layout: C2Layout): string[] {
  let names: string[];
  try {
    names = readdirSync(layout.plugins);
  } catch {
    return [];
  }
  const actions: string[] = [];
  // Temp siblings of atomic writes (policy, last-good, records, the records index) that a killed writer left;
  // every such write happens under the C2 lock we hold, so none of them is in progress.
  const temp = /^\.(plugin-config\.json|plugin-config\.last-good\.json|installed-plugin\.json|installed-index\.json)\.tmp-\d+-[0-9a-z]+$/;
  for (const dir of [layout.root, ...names.filter((n) => !n.startsWith(".")).map((n) => join(layout.plugins, n))]) {
    let entries: string[] = [];
    try {
      entries = readdirSync(dir);
    } catch {}
    for (const entry of entries) {
      if (!temp.test(entry)) continue;
      rmSync(join(dir, entry), { force: true });
      actions.push(`removed ${entry}`);
    }
  }
  for (const name of names) {
    const path = join(layout.plugins, name);
    if (STAGE.test(name) || TRASH.test(name)) {
      rmSync(path, { recursive: true, force: true });
      actions.push(`removed ${name}`);
      continue;
    }
    const backup = BACKUP.exec(name);
    if (backup) {
      const home = join(layout.plugins, backup[1]);
      if (!existsSync(home)) {
        if (restore(path, home)) actions.push(`restored ${backup[1]}`);
      } else {
        rmSync(path, { recursive: true, force: true });
        actions.push(`removed ${name}`);
      }
    }
  }
  if (actions.length > 0) fsyncDir(layout.plugins);
  return actions;
}

/** Puts a backup back in place; false when another process already did (or removed it). */
function restore(backup: string, home: string): boolean {
  try {
    renameSync(backup, home);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTEMPTY" || code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Readers (list, inspect, the runtime) must not see a bundle vanish because an update was
 * killed between its two commit renames. When a backup has no bundle beside it and there is
 * no C2 lock file (so no install is between those renames right now), the backup is put back,
 * exactly as the next mutating command would. A lock left by a dead process counts as held:
 * the next mutating command takes it over and restores the backup then.
 */
export function restoreInterruptedCommits(layout: C2Layout, names: string[], lockHeld: () => boolean): boolean {
  // Every reader runs this, so it is a plain loop (no filter/includes builtins on the usual,
  // backup-free path), and only names that can be a backup are matched against BACKUP (the
  // first match compiles the regex, which a listing of installed bundles need not pay for).
  const orphans: string[] = [];
  const homes: string[] = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name.charCodeAt(0) !== 0x2e || name.indexOf(".backup-") === -1) continue;
    const m = BACKUP.exec(name);
    if (m !== null && names.indexOf(m[1]) === -1) {
      orphans.push(name);
      homes.push(m[1]);
    }
  }
  if (orphans.length === 0 || lockHeld()) return false;
  let restored = false;
  for (let i = 0; i < orphans.length; i++) restored = restore(join(layout.plugins, orphans[i]), join(layout.plugins, homes[i])) || restored;
  return restored;
}
