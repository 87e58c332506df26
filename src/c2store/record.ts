/**
 * The installed record `plugins/<id>/installed-plugin.json`: gjc's own closed format with its
 * own schema_version. It is written once per install (inside the staged directory, so it
 * commits with the bundle) and rewritten atomically when enable/trust/quarantine change.
 */
import type { Diagnostic } from "../core/diagnostics.ts";
import { trustedCapabilitiesProblem, type TrustedCapabilities } from "../audit/trust.ts";
import type { ComponentSummary } from "../families/types.ts";
import type { C2Manifest } from "../families/c2/types.ts";
import { relativePathProblem } from "../bundle/path-safety.ts";
import { isDeniedEnvName } from "../process/env.ts";
import { documentProblem } from "../store/document-problem.ts";
import { InstalledRecord } from "../store/disk-schemas.generated.ts";
import type { StoredFile } from "../store/files.ts";

export const RECORD_SCHEMA_VERSION = 1;

export type C2SourceKind = "local" | "github" | "git" | "archive";

export interface RecordSource {
  kind: C2SourceKind;
  /** The source as the user could type it again (credentials never kept). */
  spec: string;
  /** Human label: "GitHub · owner/repo", "Local · /path", "Marketplace · <catalog>". */
  display: string;
  /** The content-source identity the installed id is derived from (no ref, no commit). */
  identity: string;
  /** What the sources layer resolved (commit SHA, archive sha256, ref, url …). */
  resolved: Record<string, unknown>;
  /** Set when the bundle came from a catalog entry. */
  catalog: { path: string; name: string; entry: string } | null;
}

export interface RecordFile {
  path: string;
  size: number;
  mode: number;
  sha256: string;
}

export interface Quarantine {
  reason: string;
  files: string[];
  at: string;
}

export interface InstalledRecord {
  schema_version: 1;
  id: string;
  name: string;
  version: string;
  standard_version: "1.2.0";
  enabled: boolean;
  trusted: boolean;
  scope: "user";
  source: RecordSource;
  installed_at: string;
  updated_at: string;
  files: RecordFile[];
  total_bytes: number;
  contributions: Record<string, number>;
  components: ComponentSummary[];
  diagnostics: Diagnostic[];
  quarantine: Quarantine | null;
  manifest: C2Manifest;
  /**
   * Host variables the user passed to this plugin by name (`gjc plugin trust --pass-env`).
   * Written only when there are some, so records without it stay byte-identical.
   */
  pass_env?: string[];
  /**
   * The process-relevant capabilities of the installed content (src/audit/trust.ts), written
   * by install/upgrade; absent in records from before capability-bound trust.
   */
  capabilities?: TrustedCapabilities;
  /** What `gjc plugin trust` approved; trust is outdated when its digest differs from `capabilities`. */
  trusted_capabilities?: TrustedCapabilities;
}

/**
 * The part of a record the policy plane reads (catalog, effective policy, graph revision).
 * A whole record is one; the catalog's records index (records-index.ts) keeps exactly this.
 */
export interface RecordFacts {
  id: string;
  name: string;
  version: string;
  enabled: boolean;
  trusted: boolean;
  /** Digests only (src/audit/trust.ts trustStateOf): trust is outdated when they differ. */
  capabilities?: { digest: string };
  trusted_capabilities?: { digest: string };
  updated_at: string;
  manifest: {
    codetwo: {
      runtime: { scopeSupport: string[]; inject: string[]; optionalInject: string[] } | null;
      ui: readonly { id: string }[];
      connectors: readonly { id: string }[];
      languageServers: readonly { id: string }[];
    };
  };
}

/**
 * Checks a parsed record; returns the reason it is unusable, or undefined. A bad record is
 * skipped by the loader (and shown by list/doctor), never half-trusted. The shape is the
 * TypeBox schema (record-schema.ts, answered from its generated JSON so valid records never
 * load TypeBox); the rules below are the ones a schema cannot say.
 */
export function recordProblem(value: unknown, dirName: string): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "the record is not a JSON object";
  const record = value as Record<string, unknown>;
  // A newer gjc's record is named as such rather than as a list of unknown fields.
  if (record.schema_version !== RECORD_SCHEMA_VERSION) return `record schema ${JSON.stringify(record.schema_version)} is not supported`;
  const shapeProblem = documentProblem(InstalledRecord, value);
  if (shapeProblem !== undefined) return shapeProblem;
  const r = value as InstalledRecord;
  if (r.id !== dirName) return `the record id ${r.id} does not match its directory ${dirName}`;
  for (const [i, file] of r.files.entries()) if (relativePathProblem(file.path) !== undefined) return `unsafe file path ${JSON.stringify(file.path)} (at /files/${i}/path)`;
  if (r.manifest.name !== r.name || r.manifest.version !== r.version) return "the stored manifest does not match the record";
  // The runtime contract (c2-notes §4.1): a runtime exists exactly when commands are declared.
  const codetwo = r.manifest.codetwo as unknown as Record<string, unknown>;
  if ((codetwo.runtime !== null) !== ((codetwo.commands as unknown[]).length > 0)) return "the stored manifest breaks the runtime/commands contract";
  const denied = r.pass_env?.findIndex(isDeniedEnvName) ?? -1;
  if (denied >= 0) return `pass_env names ${JSON.stringify(r.pass_env![denied])}, which may not pass to a plugin (at /pass_env/${denied})`;
  return trustedCapabilitiesProblem(r.capabilities, "capabilities") ?? trustedCapabilitiesProblem(r.trusted_capabilities, "trusted_capabilities");
}

export function serializeRecord(record: InstalledRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** The record's files in the store's vocabulary (`size` is the store's `bytes`). */
export const storedFiles = (record: Pick<InstalledRecord, "files">): StoredFile[] => record.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.size, mode: f.mode }));
