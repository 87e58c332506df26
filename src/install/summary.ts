import type { Static } from "typebox";
import type { BundleSummarySchema } from "../store/index-schemas.ts";
import { sourceDisplay } from "./source-display.ts";
import { entrySurfaces, type RegistryEntry } from "./registry-types.ts";

export interface SurfaceState {
  id: string;
  kind: string;
  /** enabled, disabled (by the user), or quarantined (fail-closed). */
  state: "enabled" | "disabled" | "quarantined";
  quarantine?: string;
}

/** What list/inspect show for one installed GJC bundle; its shape is the list index's (src/store/index-schemas.ts). */
export type BundleSummary = Static<typeof BundleSummarySchema>;

/** True when the bundle as a whole is quarantined (a `plugin:<name>` record). */
export const wholeQuarantined = (e: RegistryEntry) =>
  (e.quarantine ?? []).some((q) => q.surfaceId === `plugin:${e.name}`);

export function surfaceStates(e: RegistryEntry): SurfaceState[] {
  const disabled = new Set(e.disabledSurfaceIds);
  const whole = wholeQuarantined(e);
  const q = new Map((e.quarantine ?? []).map((r) => [r.surfaceId, r.code]));
  return entrySurfaces(e)
    .map((s): SurfaceState => {
      const code = q.get(s.extensionId) ?? (whole ? q.get(`plugin:${e.name}`) : undefined);
      if (code) return { id: s.extensionId, kind: s.kind, state: "quarantined", quarantine: code };
      return {
        id: s.extensionId,
        kind: s.kind,
        state: !e.enabled || disabled.has(s.extensionId) ? "disabled" : "enabled",
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function summarize(e: RegistryEntry): BundleSummary {
  const states = surfaceStates(e);
  const count = (st: SurfaceState["state"]) => states.filter((s) => s.state === st).length;
  return {
    family: "gjc",
    name: e.name,
    version: e.version,
    scope: e.scope,
    enabled: e.enabled,
    quarantined: (e.quarantine ?? []).length > 0,
    counts: {
      surfaces: states.length,
      enabled: count("enabled"),
      disabled: count("disabled"),
      quarantined: count("quarantined"),
    },
    source: {
      kind: e.source.kind,
      display: sourceDisplay(e.source),
      ...(e.source.ref ? { ref: e.source.ref } : {}),
      ...(e.source.sha ? { sha: e.source.sha } : {}),
      resolvedAt: e.source.resolvedAt,
    },
    installedAt: e.installedAt,
    updatedAt: e.updatedAt,
    manifestHash: e.manifestHash,
    quarantine: (e.quarantine ?? []).map((q) => ({
      surfaceId: q.surfaceId,
      code: q.code,
      message: q.message,
      detectedAt: q.detectedAt,
    })),
    ...(e.signer ? { signer: { ...e.signer } } : {}),
  };
}
