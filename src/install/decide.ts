import type { CompiledBundle } from "../families/gjc/compile-for-install.ts";
import { candidateFingerprint, entryFingerprint } from "./fingerprint.ts";
import { entrySurfaces, type RegistryEntry } from "./registry-types.ts";
import { verifyInstalledBundle } from "./verify-entry.ts";

export interface SurfaceDelta {
  added: string[];
  removed: string[];
  kept: string[];
}

export type Decision =
  | { action: "install" }
  /** Same content, installed files intact and nothing quarantined. */
  | { action: "unchanged" }
  /** Same content, but the installed copy drifted or is quarantined: copy it again. */
  | { action: "repair"; reason: string }
  /** Different content. */
  | { action: "update" };

export function surfaceDelta(previous: RegistryEntry | undefined, bundle: CompiledBundle): SurfaceDelta {
  const before = new Set(previous ? entrySurfaces(previous).map((s) => s.extensionId) : []);
  const after = new Set(bundle.surfaces.map((s) => s.id));
  const sorted = (xs: Iterable<string>) => [...xs].sort();
  return {
    added: sorted([...after].filter((x) => !before.has(x))),
    removed: sorted([...before].filter((x) => !after.has(x))),
    kept: sorted([...after].filter((x) => before.has(x))),
  };
}

/**
 * What re-installing `bundle` over `existing` means (DESIGN item 9): identical content is a
 * no-op unless the installed copy is damaged or quarantined (then a reinstall repairs it and
 * clears the quarantine); different content is an update, which plain install refuses.
 */
export function decide(existing: RegistryEntry | undefined, bundle: CompiledBundle): Decision {
  if (!existing) return { action: "install" };
  if (entryFingerprint(existing) !== candidateFingerprint(bundle)) return { action: "update" };
  if ((existing.quarantine ?? []).length > 0) return { action: "repair", reason: "the installed copy is quarantined" };
  const check = verifyInstalledBundle(existing);
  if (!check.ok) return { action: "repair", reason: `the installed copy differs (${check.problems[0].message})` };
  return { action: "unchanged" };
}

/**
 * Per-surface choices survive an update: surfaces that stay keep their enabled/disabled state,
 * surfaces that are gone are forgotten, new ones start as the bundle declares.
 */
export function reconcileDisabled(previous: RegistryEntry | undefined, bundle: CompiledBundle): string[] {
  const before = new Set(previous ? entrySurfaces(previous).map((s) => s.extensionId) : []);
  const disabled = new Set(previous?.disabledSurfaceIds ?? []);
  const out: string[] = [];
  for (const s of bundle.surfaces) {
    if (before.has(s.id) ? disabled.has(s.id) : s.enabledByDefault === false) out.push(s.id);
  }
  return out.sort();
}
