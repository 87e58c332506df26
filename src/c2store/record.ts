/**
 * The installed record `plugins/<id>/installed-plugin.json`: gjc's own closed format with its
 * own schema_version. It is written once per install (inside the staged directory, so it
 * commits with the bundle) and rewritten atomically when enable/trust/quarantine change.
 */
import type { Diagnostic } from "../core/diagnostics.ts";
import type { ComponentSummary } from "../families/types.ts";
import type { C2Manifest } from "../families/c2/types.ts";

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
}

const RECORD_KEYS = [
  "schema_version", "id", "name", "version", "standard_version", "enabled", "trusted", "scope", "source",
  "installed_at", "updated_at", "files", "total_bytes", "contributions", "components", "diagnostics", "quarantine", "manifest",
] as const;
const SOURCE_KEYS = ["kind", "spec", "display", "identity", "resolved", "catalog"] as const;
const SOURCE_KINDS: readonly string[] = ["local", "github", "git", "archive"];
const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,60}-[0-9a-f]{8}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks a parsed record; returns the reason it is unusable, or undefined. A bad record is
 * skipped by the loader (and shown by list/doctor), never half-trusted.
 */
export function recordProblem(value: unknown, dirName: string): string | undefined {
  if (!isObject(value)) return "the record is not a JSON object";
  if (value.schema_version !== RECORD_SCHEMA_VERSION) return `record schema ${JSON.stringify(value.schema_version)} is not supported`;
  for (const key of Object.keys(value)) if (!(RECORD_KEYS as readonly string[]).includes(key)) return `unknown record field "${key}"`;
  for (const key of RECORD_KEYS) if (!(key in value)) return `missing record field "${key}"`;
  if (typeof value.id !== "string" || !ID_PATTERN.test(value.id)) return "invalid installed id";
  if (value.id !== dirName) return `the record id ${value.id} does not match its directory ${dirName}`;
  if (typeof value.name !== "string" || typeof value.version !== "string") return "name and version must be strings";
  if (value.standard_version !== "1.2.0") return `C2 standard ${JSON.stringify(value.standard_version)} is not supported`;
  if (typeof value.enabled !== "boolean" || typeof value.trusted !== "boolean") return "enabled and trusted must be booleans";
  if (value.scope !== "user") return "scope must be user";
  const source = value.source;
  if (!isObject(source)) return "source must be an object";
  for (const key of Object.keys(source)) if (!(SOURCE_KEYS as readonly string[]).includes(key)) return `unknown source field "${key}"`;
  if (typeof source.kind !== "string" || !SOURCE_KINDS.includes(source.kind)) return "invalid source kind";
  if (typeof source.identity !== "string" || typeof source.display !== "string" || typeof source.spec !== "string") return "invalid source";
  if (!isObject(source.resolved)) return "invalid source.resolved";
  if (typeof value.installed_at !== "string" || typeof value.updated_at !== "string") return "invalid timestamps";
  if (!Array.isArray(value.files)) return "files must be an array";
  for (const f of value.files) {
    if (!isObject(f) || typeof f.path !== "string" || typeof f.sha256 !== "string" || typeof f.size !== "number" || typeof f.mode !== "number") return "invalid file entry";
    if (f.path.startsWith("/") || f.path.split("/").some((s: string) => s === ".." || s === "." || s === "")) return `unsafe file path ${JSON.stringify(f.path)}`;
  }
  if (!isObject(value.contributions) || !Array.isArray(value.components) || !Array.isArray(value.diagnostics)) return "invalid contributions";
  if (value.quarantine !== null && !isObject(value.quarantine)) return "invalid quarantine";
  const manifest = value.manifest;
  if (!isObject(manifest) || manifest.name !== value.name || manifest.version !== value.version) return "the stored manifest does not match the record";
  const codetwo = manifest.codetwo;
  if (!isObject(codetwo) || !Array.isArray(codetwo.commands)) return "the stored manifest has no C2 extension";
  // The runtime contract (c2-notes §4.1): a runtime exists exactly when commands are declared.
  if ((codetwo.runtime !== null) !== (codetwo.commands.length > 0)) return "the stored manifest breaks the runtime/commands contract";
  return undefined;
}

export function serializeRecord(record: InstalledRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
