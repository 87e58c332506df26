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
import { ENV_NAME, isDeniedEnvName, MAX_PASS_ENV } from "../process/env.ts";
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

const RECORD_KEYS = [
  "schema_version", "id", "name", "version", "standard_version", "enabled", "trusted", "scope", "source",
  "installed_at", "updated_at", "files", "total_bytes", "contributions", "components", "diagnostics", "quarantine", "manifest",
] as const;
const SOURCE_KEYS = ["kind", "spec", "display", "identity", "resolved", "catalog"] as const;
const SOURCE_KINDS: ReadonlySet<string> = new Set(["local", "github", "git", "archive"]);
const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,60}-[0-9a-f]{8}$/;

/*
 * Start-up cost shapes this checker: `gjc plugin policy catalog` checks every installed
 * record in a fresh process, and JSC compiles any function called a few dozen times (and
 * optimizes one called a few hundred times) on the way; for a 50-bundle catalog those
 * compilations cost more than the reading. So the common case calls no helper: the key lists
 * are compared as one joined string (records are written with their keys in this order; the
 * equal count rules out a key with a comma faking the join) and the object checks are written
 * out. Any other key order takes the exact key-by-key check.
 */
const RECORD_KEY_LIST = RECORD_KEYS.join(",");
const SOURCE_KEY_LIST = SOURCE_KEYS.join(",");

/** The first problem with the keys of `value` (unknown first, then missing), or undefined. */
function keyProblem(value: Record<string, unknown>, allowed: readonly string[], what: string): string | undefined {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) return `unknown ${what} field "${key}"`;
  for (const key of allowed) if (!(key in value)) return `missing ${what} field "${key}"`;
  return undefined;
}

/**
 * Checks a parsed record; returns the reason it is unusable, or undefined. A bad record is
 * skipped by the loader (and shown by list/doctor), never half-trusted.
 */
export function recordProblem(value: unknown, dirName: string): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "the record is not a JSON object";
  const { pass_env: passEnv, capabilities, trusted_capabilities: trustedCapabilities, ...record } = value as Record<string, unknown>;
  const passEnvProblem = passEnvRecordProblem(passEnv) ?? trustedCapabilitiesProblem(capabilities, "capabilities") ?? trustedCapabilitiesProblem(trustedCapabilities, "trusted_capabilities");
  if (passEnvProblem !== undefined) return passEnvProblem;
  if (record.schema_version !== RECORD_SCHEMA_VERSION) return `record schema ${JSON.stringify(record.schema_version)} is not supported`;
  const keys = Object.keys(record);
  if (keys.length !== RECORD_KEYS.length || keys.join(",") !== RECORD_KEY_LIST) {
    const problem = keyProblem(record, RECORD_KEYS, "record");
    if (problem !== undefined) return problem;
  }
  if (typeof record.id !== "string" || !ID_PATTERN.test(record.id)) return "invalid installed id";
  if (record.id !== dirName) return `the record id ${record.id} does not match its directory ${dirName}`;
  if (typeof record.name !== "string" || typeof record.version !== "string") return "name and version must be strings";
  if (record.standard_version !== "1.2.0") return `C2 standard ${JSON.stringify(record.standard_version)} is not supported`;
  if (typeof record.enabled !== "boolean" || typeof record.trusted !== "boolean") return "enabled and trusted must be booleans";
  if (record.scope !== "user") return "scope must be user";
  const source = record.source;
  if (typeof source !== "object" || source === null || Array.isArray(source)) return "source must be an object";
  const src = source as Record<string, unknown>;
  // Only unknown source keys are refused (a missing one fails the type checks below).
  const sourceKeys = Object.keys(src);
  if (sourceKeys.length !== SOURCE_KEYS.length || sourceKeys.join(",") !== SOURCE_KEY_LIST) {
    for (const key of Object.keys(src)) if (!(SOURCE_KEYS as readonly string[]).includes(key)) return `unknown source field "${key}"`;
  }
  if (typeof src.kind !== "string" || !SOURCE_KINDS.has(src.kind)) return "invalid source kind";
  if (typeof src.identity !== "string" || typeof src.display !== "string" || typeof src.spec !== "string") return "invalid source";
  const resolved = src.resolved;
  if (typeof resolved !== "object" || resolved === null || Array.isArray(resolved)) return "invalid source.resolved";
  if (typeof record.installed_at !== "string" || typeof record.updated_at !== "string") return "invalid timestamps";
  const files = record.files;
  if (!Array.isArray(files)) return "files must be an array";
  for (let i = 0; i < files.length; i++) {
    const f: unknown = files[i];
    if (typeof f !== "object" || f === null || Array.isArray(f)) return "invalid file entry";
    const file = f as Record<string, unknown>;
    if (typeof file.path !== "string" || typeof file.sha256 !== "string" || typeof file.size !== "number" || typeof file.mode !== "number") return "invalid file entry";
    if (relativePathProblem(file.path) !== undefined) return `unsafe file path ${JSON.stringify(file.path)}`;
  }
  const contributions = record.contributions;
  if (typeof contributions !== "object" || contributions === null || Array.isArray(contributions) || !Array.isArray(record.components) || !Array.isArray(record.diagnostics)) return "invalid contributions";
  const quarantine = record.quarantine;
  if (quarantine !== null && (typeof quarantine !== "object" || Array.isArray(quarantine))) return "invalid quarantine";
  const manifest = record.manifest;
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) return "the stored manifest does not match the record";
  const stored = manifest as Record<string, unknown>;
  if (stored.name !== record.name || stored.version !== record.version) return "the stored manifest does not match the record";
  const codetwo = stored.codetwo;
  if (typeof codetwo !== "object" || codetwo === null || Array.isArray(codetwo)) return "the stored manifest has no C2 extension";
  const extension = codetwo as Record<string, unknown>;
  const commands = extension.commands;
  if (!Array.isArray(commands)) return "the stored manifest has no C2 extension";
  // The runtime contract (c2-notes §4.1): a runtime exists exactly when commands are declared.
  if ((extension.runtime !== null) !== (commands.length > 0)) return "the stored manifest breaks the runtime/commands contract";
  return undefined;
}

/** `pass_env` is optional; when present, a short list of plain variable names that may pass. */
function passEnvRecordProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > MAX_PASS_ENV) return "pass_env must be a list of at most 64 variable names";
  const bad = value.find((name) => typeof name !== "string" || !ENV_NAME.test(name) || isDeniedEnvName(name));
  return bad === undefined ? undefined : `pass_env names ${JSON.stringify(bad)}, which may not pass to a plugin`;
}

export function serializeRecord(record: InstalledRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** The record's files in the store's vocabulary (`size` is the store's `bytes`). */
export const storedFiles = (record: Pick<InstalledRecord, "files">): StoredFile[] => record.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.size, mode: f.mode }));
