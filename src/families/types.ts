import type { CommandSurface } from "./c2/command-surface.ts";
import type { Diagnostic } from "../core/diagnostics.ts";

export type FamilyId = "c2" | "gjc";

/** One file a bundle would install, as hashed from the bytes that will be copied. */
export interface PlannedFile {
  path: string;
  sha256: string;
  bytes: number;
  mode?: number;
}

/** A GJC surface (tool, hook, mcp, appendix, subskill) by its stable extension id. */
export interface SurfaceSummary {
  id: string;
  kind: string;
  enabledByDefault: boolean;
}

/** A C2 extension component and whether it can run (`ready`, `requires-trust`, `unsupported`). */
export interface ComponentSummary {
  kind: string;
  name: string;
  path: string;
  status: "ready" | "requires-trust" | "requires-auth" | "unsupported";
}

export interface CatalogEntrySummary {
  index: number;
  name: string | null;
  version: string | null;
  source: string | null;
  ok: boolean;
}

/**
 * The answer of `validate`, shared by both families and catalogs. Install runs the same
 * pipeline, so this is also what an install would act on.
 */
export interface ValidationReport {
  ok: boolean;
  family: FamilyId | "catalog";
  /** Absolute path of the bundle directory or catalog file. */
  target: string;
  name: string | null;
  version: string | null;
  contributions?: Record<string, number>;
  components?: ComponentSummary[];
  surfaces?: SurfaceSummary[];
  files?: PlannedFile[];
  entries?: CatalogEntrySummary[];
  /** C2: the runtime commands with their title, description and argsSchema (host-readable metadata). */
  commands?: CommandSurface[];
  diagnostics: Diagnostic[];
}
