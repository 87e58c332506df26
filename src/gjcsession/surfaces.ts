import type { GjcAppendixSurface, GjcHookSurface, GjcMcpSurface, GjcSubskillSurface, GjcToolSurface } from "../families/gjc/surface-types.ts";
import type { RegistrySurface } from "../install/registry-types.ts";

/**
 * Registry surfaces are the compiler's surfaces with `id` stored as `extensionId`; these views
 * give session code typed fields without re-validating what install already checked.
 */
type Stored<T> = T & { extensionId: string };

export type StoredTool = Stored<GjcToolSurface>;
export type StoredHook = Stored<GjcHookSurface>;
export type StoredMcp = Stored<GjcMcpSurface>;
export type StoredAppendix = Stored<GjcAppendixSurface>;
export type StoredSubskill = Stored<GjcSubskillSurface>;

export const isTool = (s: RegistrySurface): s is StoredTool => s.kind === "tool";
export const isHook = (s: RegistrySurface): s is StoredHook => s.kind === "hook";
export const isMcp = (s: RegistrySurface): s is StoredMcp => s.kind === "mcp";
export const isSubskill = (s: RegistrySurface): s is StoredSubskill => s.kind === "subskill";
export const isAppendix = (s: RegistrySurface): s is StoredAppendix => s.kind === "system-appendix" || s.kind === "agent-appendix";

/** Files whose verified bytes session start keeps: appendix texts and sub-skill bodies. */
export function textFilesOf(surfaces: RegistrySurface[]): Set<string> {
  const out = new Set<string>();
  for (const s of surfaces) {
    if ((isAppendix(s) || isSubskill(s)) && typeof s.path === "string") out.add(s.path);
  }
  return out;
}
