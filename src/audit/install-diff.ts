/**
 * The capability diff that `install --force --dry-run` and `upgrade --dry-run` show: the
 * installed copy's model against the candidate the installer already compiled or planned.
 * A damaged installed copy (it no longer plans) gives null and the reason, never a guess.
 */
import type { CompiledBundle } from "../families/gjc/compile-for-install.ts";
import type { C2Plan } from "../families/c2/validate.ts";
import type { C2Manifest } from "../families/c2/types.ts";
import { planAuditRoot } from "./plan-root.ts";
import { diffCapabilities, type CapabilityDiff } from "./diff.ts";
import { c2Capabilities } from "./extract-c2.ts";
import { gjcModelOf } from "./extract-gjc.ts";
import type { CapabilityModel } from "./model.ts";

export type InstallCapabilityDiff = CapabilityDiff | { unavailable: string };

async function against(installedDir: string, candidate: CapabilityModel): Promise<InstallCapabilityDiff> {
  try {
    return diffCapabilities((await planAuditRoot(installedDir)).model, candidate);
  } catch (error) {
    return { unavailable: `the installed copy could not be read (${(error as Error).message})` };
  }
}

export function gjcInstallDiff(installedRoot: string, bundle: CompiledBundle): Promise<InstallCapabilityDiff> {
  return against(installedRoot, gjcModelOf(bundle));
}

export function c2InstallDiff(installedBundleDir: string, plan: C2Plan & { manifest: C2Manifest }): Promise<InstallCapabilityDiff> {
  return against(installedBundleDir, c2Capabilities(plan));
}
