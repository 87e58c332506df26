/**
 * The shape of a scope's `registry.json` (version 1, gjc-notes §4.2) plus what we add: the
 * persisted quarantine, the recorded file modes, the resolved git SHA in `source`, and `dir`
 * (the immutable content directory of this install, relative to the scope root).
 */
export type Scope = "user" | "project";

import type { StoredFile } from "../store/files.ts";

/** The on-disk spelling of the store's installed-file record in registry.json (kept as written). */
export interface CopiedFile {
  relativePath: string;
  sha256: string;
  bytes: number;
  /** Permission bits as installed (`mode & 0o777`). */
  mode: number;
}

export interface QuarantineRecord {
  /** `plugin:<name>` for the whole bundle, or one surface id. */
  surfaceId: string;
  code: string;
  message: string;
  detectedAt: string;
}

/** Where the bundle came from, without credentials; `resolvedAt` is when it was fetched. */
export interface RegistrySource {
  kind: "path" | "tarball" | "git" | "github";
  uri?: string;
  repository?: string;
  ref?: string;
  /** The git commit checked out (git/github). */
  sha?: string;
  /** SHA-256 of the archive bytes (tarballs). */
  sha256?: string;
  subpath?: string;
  resolvedAt: string;
}

/** One surface as the compiler described it, with its stable id as `extensionId`. */
export interface RegistrySurface {
  extensionId: string;
  kind: string;
  [field: string]: unknown;
}

/** Surfaces grouped as in notes §4.2. */
export interface RegistrySurfaces {
  subskills: RegistrySurface[];
  tools: RegistrySurface[];
  hooks: RegistrySurface[];
  mcps: RegistrySurface[];
  systemAppendices: RegistrySurface[];
  agentAppendices: RegistrySurface[];
}

export const SURFACE_GROUPS: Record<string, keyof RegistrySurfaces> = {
  subskill: "subskills",
  tool: "tools",
  hook: "hooks",
  mcp: "mcps",
  "system-appendix": "systemAppendices",
  "agent-appendix": "agentAppendices",
};

export interface RegistryEntry {
  name: string;
  version: string;
  scope: Scope;
  enabled: boolean;
  /** Content directory name inside the scope root: `<name>@<id>`. */
  dir: string;
  pluginRoot: string;
  manifestPath: string;
  manifestHash: string;
  source: RegistrySource;
  installedAt: string;
  updatedAt: string;
  /** Manifest first, then the other files in byte order: the uninstall ownership boundary. */
  copiedFiles: CopiedFile[];
  surfaces: RegistrySurfaces;
  disabledSurfaceIds: string[];
  quarantine?: QuarantineRecord[];
}

export interface ScopeRegistry {
  version: 1;
  scope: Scope;
  plugins: RegistryEntry[];
}

/** Every surface of an entry, flat, in group order. */
export function entrySurfaces(entry: RegistryEntry): RegistrySurface[] {
  const s = entry.surfaces;
  return [...s.subskills, ...s.tools, ...s.hooks, ...s.mcps, ...s.systemAppendices, ...s.agentAppendices];
}

export const emptySurfaces = (): RegistrySurfaces => ({ subskills: [], tools: [], hooks: [], mcps: [], systemAppendices: [], agentAppendices: [] });

/** The installed-file records of an entry in the store's vocabulary. */
export const storedFiles = (entry: RegistryEntry): StoredFile[] => entry.copiedFiles.map((f) => ({ path: f.relativePath, sha256: f.sha256, bytes: f.bytes, mode: f.mode }));
