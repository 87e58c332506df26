import { sha256Hex } from "../bundle/hash.ts";
import type { RecordFacts } from "./record.ts";
import { byCodeUnits } from "./records.ts";

/**
 * A fingerprint of the installed set as the policy plane sees it: which bundles exist, their
 * versions, enablement, trust and last update. Installing, upgrading, removing, enabling or
 * trusting changes it, which makes every outstanding plan stale. Derived from the records
 * (the commit point of every install), so it cannot disagree with them after a crash.
 */
export function graphRevision(records: readonly RecordFacts[]): string {
  const rows = records
    .map((r) => [r.id, r.version, r.enabled, r.trusted, r.updated_at] as const)
    .sort((a, b) => byCodeUnits(a[0], b[0]));
  return sha256Hex(JSON.stringify(rows)).slice(0, 16);
}
