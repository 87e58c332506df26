/**
 * The installed record `plugins/<id>/installed-plugin.json`: gjc's own closed format with its
 * own schema_version. It is written once per install (inside the staged directory, so it
 * commits with the bundle) and rewritten atomically when enable/trust/quarantine change.
 */
import type { Static } from "typebox";
import type { Diagnostic } from "../core/diagnostics.ts";
import type { RecordFactsSchema } from "../store/index-schemas.ts";
import type * as Schema from "./record-schema.ts";
import { trustedCapabilitiesProblem, type TrustedCapabilities } from "../families/c2/trust.ts";
import type { StoredComponent } from "./record-components.ts";
import type { C2Manifest } from "../families/c2/types.ts";
import { relativePathProblem } from "../bundle/path-safety.ts";
import { isDeniedEnvName } from "../process/env.ts";
import { documentProblem } from "../store/document-problem.ts";
import { InstalledRecord } from "./disk-schemas.generated.ts";
import type { StoredFile } from "../store/files.ts";

export const RECORD_SCHEMA_VERSION = 1;

export type C2SourceKind = Static<typeof Schema.SourceKind>;
/** Records from before catalogs have no `catalog`. */
export type RecordSource = Static<typeof Schema.Source>;
export type RecordFile = Static<typeof Schema.File>;
export type Quarantine = Static<typeof Schema.Quarantine>;

/**
 * The record as the schema says, except the parts it deliberately checks only as far as the
 * record's own rules read them (the manifest was fully validated at install time; components,
 * diagnostics and capabilities are what their producers made): those carry their producers' types.
 */
export type InstalledRecord = Omit<
  Static<typeof Schema.InstalledRecordSchema>,
  "manifest" | "components" | "diagnostics" | "capabilities" | "trusted_capabilities"
> & {
  manifest: C2Manifest;
  components: StoredComponent[];
  diagnostics: Diagnostic[];
  capabilities?: TrustedCapabilities;
  trusted_capabilities?: TrustedCapabilities;
};

/**
 * The part of a record the policy plane reads (catalog, effective policy, graph revision).
 * A whole record is one; the catalog's records index (records-index.ts) keeps exactly this,
 * so its shape is the index schema's (src/store/index-schemas.ts).
 */
export type RecordFacts = Static<typeof RecordFactsSchema>;

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
  if (record.schema_version !== RECORD_SCHEMA_VERSION)
    return `record schema ${JSON.stringify(record.schema_version)} is not supported`;
  const shapeProblem = documentProblem(InstalledRecord, value);
  if (shapeProblem !== undefined) return shapeProblem;
  const r = value as InstalledRecord;
  if (r.id !== dirName) return `the record id ${r.id} does not match its directory ${dirName}`;
  for (const [i, file] of r.files.entries())
    if (relativePathProblem(file.path) !== undefined)
      return `unsafe file path ${JSON.stringify(file.path)} (at /files/${i}/path)`;
  if (r.manifest.name !== r.name || r.manifest.version !== r.version)
    return "the stored manifest does not match the record";
  // The runtime contract (c2-notes §4.1): a runtime exists exactly when commands are declared.
  const codetwo = r.manifest.codetwo as unknown as Record<string, unknown>;
  if ((codetwo.runtime !== null) !== (codetwo.commands as unknown[]).length > 0)
    return "the stored manifest breaks the runtime/commands contract";
  const denied = r.pass_env?.findIndex(isDeniedEnvName) ?? -1;
  if (denied >= 0)
    return `pass_env names ${JSON.stringify(r.pass_env![denied])}, which may not pass to a plugin (at /pass_env/${denied})`;
  return (
    trustedCapabilitiesProblem(r.capabilities, "capabilities") ??
    trustedCapabilitiesProblem(r.trusted_capabilities, "trusted_capabilities")
  );
}

export function serializeRecord(record: InstalledRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** The record's files in the store's vocabulary (`size` is the store's `bytes`). */
export const storedFiles = (record: Pick<InstalledRecord, "files">): StoredFile[] =>
  record.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.size, mode: f.mode }));
