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
        renameSync(path, home);
        actions.push(`restored ${backup[1]}`);
      } else {
        rmSync(path, { recursive: true, force: true });
        actions.push(`removed ${name}`);
      }
    }
  }
  if (actions.length > 0) fsyncDir(layout.plugins);
  return actions;
}
