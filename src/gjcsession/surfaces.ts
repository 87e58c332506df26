import type {
  GjcAppendixSurface,
  GjcHookSurface,
  GjcMcpSurface,
  GjcSubskillSurface,
  GjcToolSurface,
} from "../families/gjc/surface-types.ts";
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
export const isAppendix = (s: RegistrySurface): s is StoredAppendix =>
  s.kind === "system-appendix" || s.kind === "agent-appendix";

/** Files whose verified bytes session start keeps: appendix texts and sub-skill bodies. */
export function textFilesOf(surfaces: RegistrySurface[]): Set<string> {
  const out = new Set<string>();
  for (const s of surfaces) {
    if ((isAppendix(s) || isSubskill(s)) && typeof s.path === "string") out.add(s.path);
  }
  return out;
}

/** A sub-skill-scoped tool module, as handed to a host: loaded only while its sub-skill's phase is active. */
export interface SubskillTool {
  /** Bundle-relative path of the installed module. */
  path: string;
  /** Absolute path under the installed root. */
  module: string;
  /** SHA-256 of the installed (verified) file. */
  sha256: string;
}

/**
 * The tool modules one sub-skill brings (the manifest's string `tools` entries, then its
 * SKILL.md `tools:`), each an installed file of the bundle; a path that is not one is left out
 * (judgeEntry quarantines such a sub-skill before this is reached).
 */
export function subskillToolsOf(
  entry: { pluginRoot: string; copiedFiles: readonly { relativePath: string; sha256: string }[] },
  s: StoredSubskill,
): SubskillTool[] {
  const installed = new Map(entry.copiedFiles.map((f) => [f.relativePath, f.sha256]));
  const out: SubskillTool[] = [];
  for (const path of Array.isArray(s.toolPaths) ? s.toolPaths : []) {
    const sha256 = installed.get(path);
    if (sha256 !== undefined && !out.some((t) => t.path === path))
      out.push({ path, module: `${entry.pluginRoot}/${path}`, sha256 });
  }
  return out;
}

/** The name a sub-skill tool must register: its file name without the last extension (gjc-notes §1.6). */
export const subskillToolName = (path: string): string => {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
};
