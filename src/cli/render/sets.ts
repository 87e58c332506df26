/** Human output of the plugin-set verbs (lock, sync, cache, outdated, history, rollback). */
import type { LockCheckResult, LockDifference, LockWriteResult } from "../../sets/lock.ts";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

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
