/** Human output of the plugin-set verbs (lock, sync, cache, outdated, history, rollback). */
import type { LockCheckResult, LockDifference, LockWriteResult } from "../../sets/lock.ts";

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

export function describeLockWrite(r: LockWriteResult): string {
  const head = r.changed
    ? `Wrote ${r.path} (${plural(r.bundles.length, "bundle")}).`
    : `${r.path} is up to date (${plural(r.bundles.length, "bundle")}).`;
  return [head, ...r.bundles.map((b) => `  ${b.name} ${b.version} [${b.family}] ${b.integrity.slice(0, 19)}…`)].join(
    "\n",
  );
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
      return `  drifted  ${d.name} [${d.family}]: ${(d.files ?? [])
        .slice(0, 10)
        .map((f) => `${f.path} (${f.kind})`)
        .join(", ")}${(d.files ?? []).length > 10 ? ", …" : ""}`;
  }
}

export function describeLockCheck(r: LockCheckResult): string {
  if (r.ok) return `${r.path} matches the installed ${r.scope} scope.`;
  return [
    `${r.path} differs from the installed ${r.scope} scope (${plural(r.differences.length, "difference")}):`,
    ...r.differences.map(describeDifference),
    `Run "gjc plugin sync --${r.scope}" to make the scope the lock, or "gjc plugin lock --${r.scope}" to record the installed state.`,
  ].join("\n");
}

export function describeCacheList(r: {
  root: string;
  entries: { integrity: string; name: string; family: string; version: string; files: number; bytes: number }[];
  broken: string[];
}): string {
  if (r.entries.length === 0 && r.broken.length === 0) return `The content cache ${r.root} is empty.`;
  const lines = [`${r.root}: ${plural(r.entries.length, "entry", "entries")}`];
  for (const e of r.entries)
    lines.push(
      `  ${e.integrity.slice(0, 19)}…  ${e.name} ${e.version} [${e.family}] (${plural(e.files, "file")}, ${e.bytes} bytes)`,
    );
  for (const b of r.broken) lines.push(`  ${b.slice(0, 19)}…  damaged (run gjc plugin cache verify)`);
  return lines.join("\n");
}

export function describeCacheVerify(r: {
  root: string;
  ok: boolean;
  checked: number;
  damaged: { integrity: string; name?: string; reasons: { code: string; message: string }[] }[];
}): string {
  if (r.ok) return `All ${plural(r.checked, "cache entry", "cache entries")} in ${r.root} match their digests.`;
  const lines = [
    `${plural(r.damaged.length, "cache entry", "cache entries")} of ${r.checked} in ${r.root} no longer match their digest:`,
  ];
  for (const d of r.damaged)
    lines.push(
      `  ${d.integrity.slice(0, 19)}… ${d.name ?? ""}: ${d.reasons
        .slice(0, 5)
        .map((r) => r.message)
        .join(", ")}`,
    );
  lines.push(
    "gjc never installs from a damaged entry; run gjc plugin cache prune after removing its name from every lock, or delete the entry's directory.",
  );
  return lines.join("\n");
}

export function describeCachePrune(r: {
  root: string;
  kept: number;
  removed: { integrity: string; name?: string }[];
  dryRun: boolean;
}): string {
  const verb = r.dryRun ? "Would remove" : "Removed";
  const lines = [
    `${verb} ${plural(r.removed.length, "cache entry", "cache entries")}, kept ${r.kept} (named by a lock, a retained generation or an installed bundle).`,
  ];
  for (const e of r.removed) lines.push(`  - ${e.integrity.slice(0, 19)}… ${e.name ?? ""}`);
  return lines.join("\n");
}

const SYNC_WORDS: Record<string, [string, string]> = {
  unchanged: ["ok", "ok"],
  choices: ["choices", "would apply choices"],
  install: ["installed", "would install"],
  repair: ["repaired", "would repair"],
  replace: ["replaced", "would replace"],
  remove: ["removed", "would remove"],
  extra: ["not in lock", "not in lock"],
  policy: ["project policy set", "would set project policy"],
  unsettled: ["not installed", "not installed"],
};

export function describeSync(r: import("../../sets/sync.ts").SyncResult): string {
  const lines: string[] = [];
  for (const i of r.items) {
    const word = SYNC_WORDS[i.action][r.dryRun ? 1 : 0];
    const from = i.from ? ` (from ${i.from})` : "";
    const why =
      i.reasons.length > 0 && i.action !== "unchanged"
        ? `: ${i.reasons
            .slice(0, 5)
            .map((r) => r.message)
            .join(", ")}`
        : "";
    lines.push(
      `  ${word.padEnd(20)} ${i.name} ${i.version ?? ""} [${i.family}]${from}${why}${i.needsTrust ? " — needs trust" : ""}${i.grants === "needs-confirmation" ? " — needs grants" : i.grants === "applied" ? ` — grants ${r.dryRun ? "would be " : ""}set as the lock says` : ""}`,
    );
  }
  const changed = r.items.filter(
    (i) => i.action !== "unchanged" && i.action !== "extra" && i.action !== "unsettled",
  ).length;
  const head = r.dryRun
    ? `[dry-run] ${plural(changed, "bundle")} would change in the ${r.scope} scope.`
    : changed === 0
      ? `The ${r.scope} scope already matches ${r.lockPath}.`
      : `Synced the ${r.scope} scope to ${r.lockPath} (${plural(changed, "bundle")} changed).`;
  const tail: string[] = [];
  if (r.items.some((i) => i.action === "extra"))
    tail.push(`Bundles not in the lock are kept; add --prune to remove them.`);
  if (r.needsTrust.length > 0)
    tail.push(
      `needs trust: ${r.needsTrust.join(", ")} — the set expects ${r.needsTrust.length === 1 ? "it" : "them"} trusted; sync never grants trust. Review, then run "gjc plugin trust <name>" or sync again with --trust ${r.needsTrust.join(",")}.`,
    );
  const needsGrants = r.needsGrants ?? [];
  if (needsGrants.length > 0)
    tail.push(
      `needs grants: ${needsGrants.join(", ")} — the lock lets ${needsGrants.length === 1 ? "it" : "them"} touch more than you granted here; sync never widens a sandbox unasked. Review the grants in the lock, then sync again with --grant ${needsGrants.join(",")}.`,
    );
  return [head, ...lines, ...tail].join("\n");
}

export function describeExport(r: import("../../sets/set-archive.ts").ExportResult): string {
  return `Wrote ${r.path}: the ${r.scope} lock and ${plural(r.bundles, "bundle")} (${plural(r.files, "file")}, ${r.bytes} bytes), sha256 ${r.sha256}.\nOn a machine without network: gjc plugin sync --${r.scope} --from ${r.path}`;
}

export function describeOutdated(r: import("../../sets/outdated.ts").OutdatedResult): string {
  if (r.rows.length === 0) return "No bundles installed.";
  const short = (c?: string) => (c ? c.slice(0, 12) : "");
  const lines = r.rows.map((x) => {
    const have = x.installed.commit
      ? `${x.installed.version} @ ${short(x.installed.commit)}${x.installed.ref ? ` (${x.installed.ref})` : ""}`
      : x.installed.version;
    const latest = x.latest
      ? x.latest.tag
        ? `${x.latest.tag}${x.latest.commit ? ` @ ${short(x.latest.commit)}` : ""}`
        : (x.latest.version ?? short(x.latest.commit))
      : "";
    const tail =
      x.status === "outdated"
        ? `-> ${latest}`
        : x.status === "current"
          ? "up to date"
          : `${x.status}${x.reasons.length > 0 ? `: ${x.reasons.map((r) => r.message).join("; ")}` : ""}`;
    return `  ${x.name} [${x.family}, ${x.scope}] ${have}  ${tail}`;
  });
  const head =
    r.outdated === 0
      ? "Every checkable bundle is up to date."
      : `${plural(r.outdated, "bundle")} can be upgraded (gjc plugin upgrade --all).`;
  return [head, ...lines].join("\n");
}

export function describeUpgradeAll(r: import("../../sets/upgrade-all.ts").UpgradeAllResult): string {
  const lines = r.outcomes.map(
    (o) =>
      `  ${o.outcome.padEnd(9)} ${o.name} [${o.family}, ${o.scope}]${o.from !== undefined && o.to !== undefined && o.from !== o.to ? ` ${o.from} -> ${o.to}` : ""}${o.reasons.length > 0 ? `: ${o.reasons.map((r) => r.message).join("; ")}` : ""}`,
  );
  const n = (k: string) => r.outcomes.filter((o) => o.outcome === k).length;
  const head = `${r.dryRun ? "[dry-run] " : ""}${n("upgraded")} ${r.dryRun ? "would be upgraded" : "upgraded"}, ${n("unchanged")} unchanged, ${n("failed")} failed.`;
  const locks = r.locksUpdated.map((p) => `Updated the lock ${p}.`);
  return [head, ...lines, ...locks].join("\n");
}

export function describeHistory(
  r: { scope: string; generations: import("../../sets/rollback.ts").HistoryRow[] },
  name?: string,
): string {
  if (r.generations.length === 0) return `The ${r.scope} scope has no recorded generations yet.`;
  const lines: string[] = [];
  for (const g of r.generations) {
    lines.push(`generation ${g.generation}  ${g.at}  ${g.command}`);
    if (name !== undefined && g.bundles.length === 0) lines.push(`  ${name}: not installed`);
    for (const b of g.bundles)
      lines.push(
        `  ${b.name} ${b.version} [${b.family}] ${b.integrity.slice(0, 19)}…${b.pin.commit ? ` @ ${b.pin.commit.slice(0, 12)}` : ""}${b.enabled ? "" : " (disabled)"}${b.disabledSurfaces.length ? ` (${b.disabledSurfaces.length} surface${b.disabledSurfaces.length === 1 ? "" : "s"} off)` : ""}${b.c2?.trusted ? " (trusted)" : ""}`,
      );
  }
  return lines.join("\n");
}

export function describeRollback(r: import("../../sets/rollback.ts").RollbackResult): string {
  const head =
    r.status === "unchanged"
      ? `${r.name} in the ${r.scope} scope is already as generation ${r.generation} had it.`
      : r.status === "removed"
        ? `Removed ${r.name} from the ${r.scope} scope: generation ${r.generation} did not have it.`
        : `Rolled ${r.name} back to generation ${r.generation} in the ${r.scope} scope${r.from ? ` (${r.from.version} -> ${r.to?.version})` : ` (${r.to?.version})`}, files and choices.`;
  return r.trustNotRaised
    ? `${head}\n  ${r.name} was trusted in generation ${r.generation} but is not trusted now; rollback never raises trust (gjc plugin trust ${r.name} after review).`
    : head;
}
