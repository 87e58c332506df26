import type { Context } from "../core/context.ts";
import { scopeRoot } from "../families/gjc/layout.ts";
import { notInstalled } from "./not-installed.ts";
import { tryReadRegistry, writeRegistry } from "./registry.ts";
import type { QuarantineRecord, RegistryEntry, Scope } from "./registry-types.ts";
import { withScopes } from "./scope-session.ts";
import type { StoreProblem, VerifiedBundle } from "../store/documents.ts";
import type { FileProblem } from "../store/verify.ts";
import { verifyInstalledBundle } from "./verify-entry.ts";

export interface VerifyReport {
  ok: boolean;
  bundles: VerifiedBundle[];
  /** Scopes whose registry is corrupt (fail closed: nothing in them counts as verified). */
  problems: StoreProblem[];
}

const MAX_RECORDS = 20;

/** The quarantine records verify owns for one bundle (`runtime_mismatch` on `plugin:<name>`). */
export function driftRecords(entry: RegistryEntry, problems: FileProblem[], detectedAt: string): QuarantineRecord[] {
  const records = problems
    .slice(0, MAX_RECORDS)
    .map((p) => ({ surfaceId: `plugin:${entry.name}`, code: "runtime_mismatch", message: p.message, detectedAt }));
  if (problems.length > MAX_RECORDS)
    records.push({
      surfaceId: `plugin:${entry.name}`,
      code: "runtime_mismatch",
      message: `…and ${problems.length - MAX_RECORDS} more problems`,
      detectedAt,
    });
  return records;
}

/**
 * Verify owns only the bundle-level file-drift records (`plugin:<name>`); a surface that a
 * runtime check quarantined (`tool:x`, `hook:…`) stays so until a runtime check passes again.
 */
const ownRecord = (q: QuarantineRecord) => q.code === "runtime_mismatch" && q.surfaceId.startsWith("plugin:");

/** The entry with verify's records replaced (others, e.g. from session start, are kept). */
function requarantine(entry: RegistryEntry, records: QuarantineRecord[]): RegistryEntry {
  const kept = (entry.quarantine ?? []).filter((q) => !ownRecord(q));
  const quarantine = [...kept, ...records];
  const next: RegistryEntry = { ...entry };
  if (quarantine.length > 0) next.quarantine = quarantine;
  else delete next.quarantine;
  return next;
}

const sameMessages = (a: QuarantineRecord[], b: QuarantineRecord[]) =>
  Bun.deepEquals(
    a.map((q) => q.message),
    b.map((q) => q.message),
  );

/**
 * `gjc plugin verify [<name>]`: re-hashes every installed file of every bundle (or the named
 * one) in both scopes. Drift quarantines the bundle (`runtime_mismatch`, the files named); a
 * clean result clears verify's own quarantine. Registry writes happen under the scope lock,
 * only when something changed, and only for entries that were not replaced meanwhile.
 */
export async function verifyGjc(
  ctx: Context,
  name?: string,
  scopes: Scope[] = ["user", "project"],
): Promise<VerifyReport> {
  const report: VerifyReport = { ok: true, bundles: [], problems: [] };
  let found = false;
  for (const scope of scopes) {
    const root = scopeRoot(ctx, scope);
    const read = tryReadRegistry(root, scope, ctx);
    if (!read.ok) {
      report.problems.push({
        family: "gjc",
        scope,
        path: read.path,
        problem: read.problem,
        ...(read.foreign ? { foreign: true } : {}),
      });
      report.ok = false;
      continue;
    }
    const updates = new Map<string, { dir: string; records: QuarantineRecord[] }>();
    for (const entry of read.registry.plugins) {
      if (name !== undefined && entry.name !== name) continue;
      found = true;
      const check = verifyInstalledBundle(entry);
      const current = (entry.quarantine ?? []).filter(ownRecord);
      const records = check.ok ? [] : driftRecords(entry, check.problems, ctx.now().toISOString());
      let change: VerifiedBundle["change"] = "none";
      if (!check.ok && !sameMessages(current, records)) change = "quarantined";
      if (check.ok && current.length > 0) change = "cleared";
      if (change !== "none") updates.set(entry.name, { dir: entry.dir, records });
      const othersRemain = (entry.quarantine ?? []).some((q) => !ownRecord(q));
      report.bundles.push({
        family: "gjc",
        name: entry.name,
        version: entry.version,
        scope,
        ok: check.ok,
        checked: check.checked,
        problems: check.problems,
        quarantined: !check.ok || othersRemain,
        change,
      });
      if (!check.ok) report.ok = false;
    }
    if (updates.size > 0) {
      await withScopes(ctx, scope, "gjc plugin verify", false, (s) => {
        let dirty = false;
        const plugins = s.target.registry.plugins.map((p) => {
          const u = updates.get(p.name);
          if (!u || u.dir !== p.dir) return p;
          dirty = true;
          return requarantine(p, u.records);
        });
        if (dirty) writeRegistry(s.target.root, { version: 1, scope, plugins }, ctx);
      });
    }
  }
  if (name !== undefined && !found && report.problems.length === 0) throw notInstalled(name);
  return report;
}
