/**
 * Installed records gjc did not write. gjc shares `~/.codetwo/plugins/` with the C2 app by
 * default, and the app keeps its own record in the same file name (`installed-plugin.json`,
 * schema_version 3, c2-notes §4.1). Such a directory is not damage to repair: it is another
 * program's bundle. gjc reads what the app's format says about it (name, version, source,
 * enabled, trusted) so list, inspect, session and the host plane can show it, and never
 * changes, loads, sweeps or deletes it: its files are not hashed in any record gjc wrote, so
 * gjc cannot vouch for them.
 *
 * A record is gjc's own only when it says so (schema_version 1); any other numbered schema is
 * foreign, the reference app's when its fields read as that format, otherwise an unknown writer.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { RECORD_SCHEMA_VERSION } from "./record.ts";
import { RECORD_FILE } from "./paths.ts";

/** The schema_version of the C2 app's installed record. */
export const C2_APP_RECORD_SCHEMA = 3;

export interface ForeignRecord {
  /** The bundle directory's name (the app's installed id). */
  id: string;
  /** `c2-app`: the reference app's record format; `unknown`: some other program's. */
  writer: "c2-app" | "unknown";
  schemaVersion: number;
  /** Why gjc does not use it, in words. */
  problem: string;
  /** The facts the app's format records (absent for an unknown writer). */
  name?: string;
  version?: string;
  description?: string;
  /** The app's source label, e.g. "GitHub · owner/repo". */
  source?: string;
  repository?: string;
  enabled?: boolean;
  trusted?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown, max = 500): string | undefined => (typeof v === "string" && v.length <= max ? v : undefined);

/** The foreign record a parsed installed-plugin.json is, or undefined when it claims to be gjc's. */
export function foreignRecordOf(parsed: unknown, dirName: string): ForeignRecord | undefined {
  if (!isObject(parsed)) return undefined;
  const schema = parsed.schema_version;
  if (typeof schema !== "number" || !Number.isSafeInteger(schema) || schema === RECORD_SCHEMA_VERSION) return undefined;
  const unknownWriter: ForeignRecord = {
    id: dirName,
    writer: "unknown",
    schemaVersion: schema,
    problem: `its record (schema ${schema}) was written by another program; gjc leaves it alone`,
  };
  if (schema !== C2_APP_RECORD_SCHEMA) return unknownWriter;
  const name = text(parsed.name, 214);
  const version = text(parsed.version, 256);
  const facts =
    parsed.id === dirName &&
    parsed.standard_version === "1.2.0" &&
    name !== undefined &&
    version !== undefined &&
    typeof parsed.enabled === "boolean" &&
    typeof parsed.trusted === "boolean";
  if (!facts) return unknownWriter;
  const description = text(parsed.description);
  const source = text(parsed.source);
  const repository = text(parsed.repository, 2048);
  return {
    id: dirName,
    writer: "c2-app",
    schemaVersion: schema,
    problem: "it was installed by the C2 app (its own record format); gjc shows it and leaves it alone",
    name,
    version,
    ...(description !== undefined ? { description } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(repository !== undefined ? { repository } : {}),
    enabled: parsed.enabled as boolean,
    trusted: parsed.trusted as boolean,
  };
}

/** The refusal of any command that would change, load or remove a foreign bundle. */
export function foreignRecordError(foreign: ForeignRecord): GjcError {
  const what =
    foreign.writer === "c2-app"
      ? `${foreign.name} (${foreign.id}) was installed by the C2 app`
      : `${foreign.id} holds a record (schema ${foreign.schemaVersion}) that gjc did not write`;
  return new GjcError({
    code: "foreign_record",
    message: `${what}; gjc shows it but never changes, runs or deletes it.`,
    hint:
      foreign.writer === "c2-app"
        ? "Manage it in the C2 app, or install the bundle with gjc from its source under another data directory (GJC_C2_DATA_DIR)."
        : "Remove or move the directory yourself if it is not wanted.",
    details: { id: foreign.id, writer: foreign.writer },
    exit: ExitCode.refused,
  });
}

/**
 * Whether `dir` (a bundle home, or a staging or backup directory beside them) holds another
 * program's record. The C2 app stages and backs up its installs under the same names gjc uses
 * (`.<id>.stage-…`, `.<id>.backup-…`): those are its work in progress, never gjc's leftovers.
 */
export function holdsForeignRecord(dir: string): boolean {
  let parsed: unknown;
  try {
    const text = readFileSync(join(dir, RECORD_FILE), "utf8");
    if (text.length > 4 * 1024 * 1024) return false;
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return foreignRecordOf(parsed, "") !== undefined;
}
