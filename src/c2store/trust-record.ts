/**
 * `gjc plugin trust|untrust` on a C2 record: trust copies the installed content's capabilities
 * into `trusted_capabilities` (computing them from the installed copy for a record written
 * before capability binding), untrust removes them. Returns the new record, whether that
 * changed anything, and, when the bundle needed re-trust, the diff from what was trusted.
 */
import type { C2Layout } from "./paths.ts";
import { bundleDir } from "./paths.ts";
import type { InstalledRecord } from "./record.ts";
import { diffTrusted, summarizeTrustDiff, type TrustDiff } from "../families/capability-diff.ts";
import { trustedCapabilities, type TrustedCapabilities } from "../families/c2/trust.ts";

export interface TrustBinding {
  record: InstalledRecord;
  changed: boolean;
  diff?: TrustDiff;
  summary?: string;
}

/** The capabilities of the installed copy: from the record, or planned from the bundle directory. */
export async function currentCapabilities(layout: C2Layout, record: InstalledRecord): Promise<TrustedCapabilities> {
  if (record.capabilities?.code !== undefined) return record.capabilities;
  // A record made before code (or capabilities) were bound: its files are the installed ones.
  const { planAuditRoot } = await import("../families/root-capabilities.ts");
  return trustedCapabilities((await planAuditRoot(bundleDir(layout, record.id))).model, record.files);
}

export async function bindTrust(layout: C2Layout, record: InstalledRecord, trusted: boolean): Promise<TrustBinding> {
  const { trusted_capabilities: previous, ...rest } = record;
  if (!trusted) return { record: rest as InstalledRecord, changed: previous !== undefined };
  const current = await currentCapabilities(layout, record);
  const next: InstalledRecord = { ...rest, capabilities: current, trusted_capabilities: current };
  const changed = previous?.digest !== current.digest || record.capabilities?.digest !== current.digest;
  if (!previous || previous.digest === current.digest) return { record: next, changed };
  const diff = diffTrusted(previous, current);
  return { record: next, changed, diff, summary: summarizeTrustDiff(diff) };
}
