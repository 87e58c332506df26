import { sha256Hex } from "../bundle/hash.ts";
import type { InstalledRecord } from "./record.ts";

/**
 * A fingerprint of the installed set as the policy plane sees it: which bundles exist, their
 * versions, enablement, trust and last update. Installing, upgrading, removing, enabling or
 * trusting changes it, which makes every outstanding plan stale. Derived from the records
 * (the commit point of every install), so it cannot disagree with them after a crash.
 */
export function graphRevision(records: InstalledRecord[]): string {
  const rows = records
    .map((r) => [r.id, r.version, r.enabled, r.trusted, r.updated_at])
    .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0));
  return sha256Hex(JSON.stringify(rows)).slice(0, 16);
}
