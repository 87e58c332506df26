/** Human output of the plugin-set verbs (lock, sync, cache, outdated, history, rollback). */
import type { LockCheckResult, LockDifference, LockWriteResult } from "../../sets/lock.ts";

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

export function describeLockWrite(r: LockWriteResult): string {
  const head = r.changed ? `Wrote ${r.path} (${plural(r.bundles.length, "bundle")}).` : `${r.path} is up to date (${plural(r.bundles.length, "bundle")}).`;
  return [head, ...r.bundles.map((b) => `  ${b.name} ${b.version} [${b.family}] ${b.integrity.slice(0, 19)}…`)].join("\n");
}

export function describeDifference(d: LockDifference): string {
  switch (d.kind) {
    case "missing":
      return `  missing  ${d.name} [${d.family}]: in the lock, not installed`;
    case "extra":
      return `  extra    ${d.name} [${d.family}]: installed, not in the lock`;
    case "changed":
      return `  changed  ${d.name} [${d.family}]: ${(d.fields ?? []).join(", ")} differ`;
    case "drifted":
      return `  drifted  ${d.name} [${d.family}]: ${(d.files ?? []).slice(0, 10).join(", ")}${(d.files ?? []).length > 10 ? ", …" : ""}`;
  }
}

export function describeLockCheck(r: LockCheckResult): string {
  if (r.ok) return `${r.path} matches the installed ${r.scope} scope.`;
  return [`${r.path} differs from the installed ${r.scope} scope (${plural(r.differences.length, "difference")}):`, ...r.differences.map(describeDifference), `Run "gjc plugin sync --${r.scope}" to make the scope the lock, or "gjc plugin lock --${r.scope}" to record the installed state.`].join("\n");
}

export function describeCacheList(r: { root: string; entries: { integrity: string; name: string; family: string; version: string; files: number; bytes: number }[]; broken: string[] }): string {
  if (r.entries.length === 0 && r.broken.length === 0) return `The content cache ${r.root} is empty.`;
  const lines = [`${r.root}: ${plural(r.entries.length, "entry", "entries")}`];
  for (const e of r.entries) lines.push(`  ${e.integrity.slice(0, 19)}…  ${e.name} ${e.version} [${e.family}] (${plural(e.files, "file")}, ${e.bytes} bytes)`);
  for (const b of r.broken) lines.push(`  ${b.slice(0, 19)}…  damaged (run gjc plugin cache verify)`);
  return lines.join("\n");
}

export function describeCacheVerify(r: { root: string; ok: boolean; checked: number; damaged: { integrity: string; name?: string; problems: string[] }[] }): string {
  if (r.ok) return `All ${plural(r.checked, "cache entry", "cache entries")} in ${r.root} match their digests.`;
  const lines = [`${plural(r.damaged.length, "cache entry", "cache entries")} of ${r.checked} in ${r.root} no longer match their digest:`];
  for (const d of r.damaged) lines.push(`  ${d.integrity.slice(0, 19)}… ${d.name ?? ""}: ${d.problems.slice(0, 5).join(", ")}`);
  lines.push("gjc never installs from a damaged entry; run gjc plugin cache prune after removing its name from every lock, or delete the entry's directory.");
  return lines.join("\n");
}

export function describeCachePrune(r: { root: string; kept: number; removed: { integrity: string; name?: string }[]; dryRun: boolean }): string {
  const verb = r.dryRun ? "Would remove" : "Removed";
  const lines = [`${verb} ${plural(r.removed.length, "cache entry", "cache entries")}, kept ${r.kept} (named by a lock, a retained generation or an installed bundle).`];
  for (const e of r.removed) lines.push(`  - ${e.integrity.slice(0, 19)}… ${e.name ?? ""}`);
  return lines.join("\n");
}
