import { sha256Hex } from "../bundle/hash.ts";
import type { RecordFacts } from "./record.ts";

/**
 * A fingerprint of the installed set as the policy plane sees it: which bundles exist, their
 * versions, enablement, trust and last update. Installing, upgrading, removing, enabling or
 * trusting changes it, which makes every outstanding plan stale. Derived from the records
 * (the commit point of every install), so it cannot disagree with them after a crash.
 */
export function graphRevision(records: readonly RecordFacts[]): string {
  // Rows in id order. Ids are unique (directory names), so the ids are sorted with the native
  // default sort and each maps back to its row: a comparator sort runs JS per comparison, which
  // the catalog pays for in every fresh process.
  const ids: string[] = [];
  const rows = new Map<string, [string, string, boolean, boolean, string]>();
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (rows.has(r.id)) return fingerprint(sortedRows(records));
    ids.push(r.id);
    rows.set(r.id, [r.id, r.version, r.enabled, r.trusted, r.updated_at]);
  }
  ids.sort();
  const ordered: unknown[] = [];
  for (let i = 0; i < ids.length; i++) ordered.push(rows.get(ids[i]));
  return fingerprint(ordered);
}

function fingerprint(rows: unknown[]): string {
  return sha256Hex(JSON.stringify(rows)).slice(0, 16);
}

/** The general form, for a list that repeats an id (never one read from the store). */
function sortedRows(records: readonly RecordFacts[]): unknown[][] {
  return records
    .map((r) => [r.id, r.version, r.enabled, r.trusted, r.updated_at])
    .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0));
}
