import type { Context } from "../core/context.ts";
import { LOCK_FILE, scopeLabel } from "../install/layout.ts";
import { acquireLock } from "../install/lock.ts";
import { readRegistry, writeRegistry } from "../install/registry.ts";
import type { QuarantineRecord, Scope } from "../install/registry-types.ts";
import { lockTimeout } from "../install/scope-session.ts";

export interface QuarantineAddition {
  name: string;
  /** The content directory that was judged; a bundle reinstalled meanwhile is left alone. */
  pluginRoot: string;
  records: QuarantineRecord[];
}

/**
 * Persists quarantine found at session start (drift, runtime checks) into the scope's
 * registry, under the scope lock, re-reading the registry first. A record equal in surface
 * and code to one already there is not added twice. Returns how many records were written.
 */
export async function persistQuarantine(ctx: Context, scope: Scope, root: string, additions: QuarantineAddition[]): Promise<number> {
  if (additions.length === 0) return 0;
  const lock = await acquireLock(root, { command: "gjc plugin session", timeoutMs: lockTimeout(ctx), file: LOCK_FILE, label: scopeLabel(scope) });
  try {
    const registry = readRegistry(root, scope);
    let written = 0;
    for (const add of additions) {
      const entry = registry.plugins.find((e) => e.name === add.name && e.pluginRoot === add.pluginRoot);
      if (!entry) continue;
      const list = (entry.quarantine ??= []);
      for (const r of add.records) {
        if (list.some((q) => q.surfaceId === r.surfaceId && q.code === r.code && q.message === r.message)) continue;
        list.push(r);
        written++;
      }
    }
    if (written > 0) writeRegistry(root, registry);
    return written;
  } finally {
    lock.release();
  }
}
