import { existsSync, readdirSync } from "node:fs";
import { sweep, type Leftover, type LeftoverKind } from "../store/leftovers.ts";
import { join } from "node:path";
import {
  CONTENT_DIR,
  INDEX_FILE,
  GRANTS_FILE,
  MCP_PINS_FILE,
  LAST_GOOD_FILE,
  LOCK_FILE,
  REGISTRY_FILE,
  STAGING_DIR,
  TEMP_FILE,
  TRASH_DIR,
} from "../families/gjc/layout.ts";
import { processAlive } from "../process/process-identity.ts";
import type { ScopeRegistry } from "./registry-types.ts";

export type { Leftover, LeftoverKind };

/** The pid a transient name carries, when it has one. */
function pidOf(name: string): number | undefined {
  const m = /-(\d+)-[0-9a-z]+(\.tmp)?$/.exec(name) ?? /\.(\d+)-[0-9a-f]+\.tmp$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/**
 * Lists what does not belong in a scope root given its registry. Lock temp files and set-aside
 * stale locks are written by processes that do not hold the lock, so they count as leftovers
 * only when their process is gone.
 */
export function scanLeftovers(root: string, registry: ScopeRegistry | undefined): Leftover[] {
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch {
    return [];
  }
  const owned = new Set(registry?.plugins.map((p) => p.dir) ?? []);
  const out: Leftover[] = [];
  for (const name of names) {
    const path = join(root, name);
    if (
      name === REGISTRY_FILE ||
      name === LAST_GOOD_FILE ||
      name === LOCK_FILE ||
      name === INDEX_FILE ||
      name === MCP_PINS_FILE ||
      name === GRANTS_FILE
    )
      continue;
    if (STAGING_DIR.test(name)) out.push({ kind: "staging", name, path });
    else if (TRASH_DIR.test(name)) out.push({ kind: "trash", name, path });
    else if (TEMP_FILE.test(name)) {
      const lockSide = name.startsWith(".registry.lock.") || name.startsWith("registry.lock.stale-");
      const pid = pidOf(name);
      if (!lockSide || pid === undefined || !processAlive(pid)) out.push({ kind: "temp", name, path });
    } else if (CONTENT_DIR.test(name)) {
      if (registry && !owned.has(name)) out.push({ kind: "orphan", name, path });
    } else out.push({ kind: "foreign", name, path });
  }
  for (const p of registry?.plugins ?? []) {
    if (!existsSync(p.pluginRoot)) out.push({ kind: "missing", name: p.name, path: p.pluginRoot });
  }
  return out;
}

/**
 * What every mutating command does first, under the scope lock: remove the debris of commands
 * that died (staging, trash, temp files, unreferenced content dirs). Foreign entries and
 * registry entries without a directory are left for doctor to report.
 */
export function sweepLeftovers(root: string, registry: ScopeRegistry): Leftover[] {
  return sweep(scanLeftovers(root, registry));
}
