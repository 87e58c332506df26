/**
 * The TypeScript shape of a scope's `registry.json` (version 1, gjc-notes §4.2, plus what we
 * add: the persisted quarantine, the recorded file modes, the resolved git SHA in `source`, and
 * `dir`), derived from its TypeBox schema (registry-schema.ts) so the shape is written once.
 * Type-only imports: reading a registry never loads TypeBox.
 */
import type { Static } from "typebox";
import type * as Schema from "./registry-schema.ts";
import type { StoredFile } from "../store/files.ts";

export type { Scope } from "../core/scope.ts";
export type CopiedFile = Static<typeof Schema.CopiedFile>;
export type QuarantineRecord = Static<typeof Schema.Quarantine>;
export type RegistrySource = Static<typeof Schema.Source>;
/** The schema keeps a surface open: what the compiler described beside its id and kind. */
export type RegistrySurface = Static<typeof Schema.Surface> & { [field: string]: unknown };
export type RegistrySurfaces = { [group in keyof Static<typeof Schema.Surfaces>]: RegistrySurface[] };
export type RegistryEntry = Omit<Static<typeof Schema.Entry>, "surfaces"> & { surfaces: RegistrySurfaces };
export type ScopeRegistry = Omit<Static<typeof Schema.RegistrySchema>, "plugins"> & { plugins: RegistryEntry[] };

export const SURFACE_GROUPS: Record<string, keyof RegistrySurfaces> = {
  subskill: "subskills",
  tool: "tools",
  hook: "hooks",
  mcp: "mcps",
  "system-appendix": "systemAppendices",
  "agent-appendix": "agentAppendices",
};

/** Every surface of an entry, flat, in group order. */
export function entrySurfaces(entry: RegistryEntry): RegistrySurface[] {
  const s = entry.surfaces;
  return [...s.subskills, ...s.tools, ...s.hooks, ...s.mcps, ...s.systemAppendices, ...s.agentAppendices];
}

export const emptySurfaces = (): RegistrySurfaces => ({
  subskills: [],
  tools: [],
  hooks: [],
  mcps: [],
  systemAppendices: [],
  agentAppendices: [],
});

/** The installed-file records of an entry in the store's vocabulary. */
export const storedFiles = (entry: RegistryEntry): StoredFile[] =>
  entry.copiedFiles.map((f) => ({ path: f.relativePath, sha256: f.sha256, bytes: f.bytes, mode: f.mode }));
