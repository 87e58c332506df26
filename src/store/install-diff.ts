/**
 * The capability diff that `install --force --dry-run` and `upgrade --dry-run` show: the
 * installed copy's model against the candidate the installer already compiled or planned.
 * A damaged installed copy (it no longer plans) gives null and the reason, never a guess.
 */
import type { CompiledBundle } from "../families/gjc/compile-for-install.ts";
import type { C2Plan } from "../families/c2/validate.ts";
import type { C2Manifest } from "../families/c2/types.ts";
import { planAuditRoot } from "../families/root-capabilities.ts";
import { diffCapabilities, type CapabilityDiff } from "../families/capability-diff.ts";
import { c2Capabilities } from "../families/c2/capabilities.ts";
import { gjcModelOf } from "../families/gjc/capabilities.ts";
import type { GrantedCapabilityDiff } from "./grants-diff.ts";
import type { CapabilityModel } from "../families/capability-model.ts";
import type { Context } from "../core/context.ts";

export type InstallCapabilityDiff = GrantedCapabilityDiff | { unavailable: string };

/** Where the installed bundle's sandbox grants are, so the diff can say which carry over. */
export interface GrantsOf {
  ctx: Context;
  scope: "user" | "project";
}

async function against(
  installedDir: string,
  candidate: CapabilityModel,
  grants?: GrantsOf,
): Promise<InstallCapabilityDiff> {
  let diff: CapabilityDiff;
  try {
    diff = diffCapabilities((await planAuditRoot(installedDir)).model, candidate);
  } catch (error) {
    return { unavailable: `the installed copy could not be read (${(error as Error).message})` };
  }
  if (!grants) return diff;
  const [{ carriedGrants }, { recordedGrants }] = await Promise.all([
    import("./grants-diff.ts"),
    import("./grants-recorded.ts"),
  ]);
  const carried = carriedGrants(
    diff,
    candidate,
    recordedGrants(grants.ctx, candidate.family, candidate.family === "c2" ? "user" : grants.scope, candidate.name),
  );
  return carried ? { ...diff, grants: carried } : diff;
}

export function gjcInstallDiff(
  installedRoot: string,
  bundle: CompiledBundle,
  grants?: GrantsOf,
): Promise<InstallCapabilityDiff> {
  return against(installedRoot, gjcModelOf(bundle), grants);
}

export function c2InstallDiff(
  installedBundleDir: string,
  plan: C2Plan & { manifest: C2Manifest },
  grants?: GrantsOf,
): Promise<InstallCapabilityDiff> {
  return against(installedBundleDir, c2Capabilities(plan), grants);
}
