import { gjcTrustedBase } from "../store/scope-path.ts";
import type { Context } from "../core/context.ts";
import { isGjcError } from "../core/errors.ts";
import { LOCK_FILE, scopeLabel } from "../families/gjc/layout.ts";
import { acquireLock } from "../store/lock.ts";
import { readRegistry, writeRegistry } from "../install/registry.ts";
import type { QuarantineRecord, Scope } from "../install/registry-types.ts";
import type { SessionDiagnostic } from "./diagnostics.ts";
import { lockTimeout } from "../store/lock.ts";

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
export async function persistQuarantine(
  ctx: Context,
  scope: Scope,
  root: string,
  additions: QuarantineAddition[],
): Promise<number> {
  if (additions.length === 0) return 0;
  const lock = await acquireLock(root, {
    command: "gjc plugin session",
    timeoutMs: lockTimeout(ctx),
    file: LOCK_FILE,
    label: scopeLabel(scope),
    trustedBase: gjcTrustedBase(root, scope),
  });
  try {
    const registry = readRegistry(root, scope, ctx);
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
    if (written > 0) writeRegistry(root, registry, ctx);
    return written;
  } finally {
    lock.release();
  }
}

/**
 * Session start persists what it found but does not fail over it: the quarantine already
 * holds for this session, so a busy lock or a registry that changed under us becomes a
 * warning (the next session or verify records it) instead of leaving the host without a plan.
 */
export async function persistOrReport(
  ctx: Context,
  scope: Scope,
  root: string,
  additions: QuarantineAddition[],
  diagnostics: SessionDiagnostic[],
): Promise<number | undefined> {
  try {
    return await persistQuarantine(ctx, scope, root, additions);
  } catch (error) {
    if (!isGjcError(error)) throw error;
    diagnostics.push({
      scope,
      code: "quarantine_not_persisted",
      severity: "warning",
      message: `The quarantine found now applies to this session but could not be written to the ${scope} registry: ${error.message}`,
      hint: error.hint ?? 'Run "gjc plugin verify" to record it.',
    });
    return undefined;
  }
}
