import { trustStateOf, type TrustState } from "../families/c2/trust.ts";
import { existsSync, readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { restoreInterruptedCommits } from "./leftovers.ts";
import { componentsOf } from "./record-components.ts";
import { lockHeld } from "../store/lock.ts";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import type { Context } from "../core/context.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { GjcError } from "../core/errors.ts";
import type { ComponentSummary } from "../families/types.ts";
import type { C2Manifest } from "../families/c2/types.ts";
import { bundleDir, C2_LOCK_FILE, c2Layout, idFromPolicyKey, recordPath, userDataDir, type C2Layout } from "./paths.ts";
import { recordProblem, serializeRecord, type InstalledRecord, type Quarantine, type RecordSource } from "./record.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { foreignRecordError, foreignRecordOf, type ForeignRecord } from "./foreign-record.ts";
import { parseStateJson, readStateText, type StateText } from "../store/state-file.ts";

/** An installed C2 bundle as other parts of gjc (runtime, session, policy) see it. */
export interface InstalledC2 {
  id: string;
  name: string;
  version: string;
  /** Absolute path of the verbatim bundle (the runtime's cwd). */
  bundleDir: string;
  /** Absolute path of the user-scope data directory. */
  dataDir: string;
  enabled: boolean;
  trusted: boolean;
  manifest: C2Manifest;
  source: RecordSource;
  installedAt: string;
  updatedAt: string;
  contributions: Record<string, number>;
  components: ComponentSummary[];
  diagnostics: Diagnostic[];
  quarantine: Quarantine | null;
  /** Host variables the user passed to this plugin by name (`gjc plugin trust --pass-env`). */
  passEnv: string[];
  /** Capability-bound trust: needs-retrust when the installed capabilities are not the trusted ones. */
  trustState: TrustState;
  /** The record as stored. */
  record: InstalledRecord;
}

/** A directory under plugins/ whose record could not be used. */
export interface BrokenRecord {
  id: string;
  problem: string;
}

/** Reads one record; undefined when the directory has none, a problem string when unusable. */
export type RecordRead = InstalledRecord | { problem: string; foreign?: ForeignRecord } | undefined;

export function toInstalled(layout: C2Layout, record: InstalledRecord): InstalledC2 {
  return {
    id: record.id,
    name: record.name,
    version: record.version,
    bundleDir: bundleDir(layout, record.id),
    dataDir: userDataDir(layout, record.id),
    enabled: record.enabled,
    trusted: record.trusted,
    manifest: record.manifest,
    source: record.source,
    installedAt: record.installed_at,
    updatedAt: record.updated_at,
    contributions: record.contributions,
    components: componentsOf(record.components),
    diagnostics: record.diagnostics,
    quarantine: record.quarantine,
    passEnv: record.pass_env ?? [],
    trustState: trustStateOf(record),
    record,
  };
}

/** Reads one record; undefined when the directory has none, a problem string when unusable. */
export function readRecord(layout: C2Layout, id: string): RecordRead {
  // The one state reader (src/store/state-file.ts): this user's regular file, bounded like bundle JSON.
  let read: StateText;
  try {
    read = readStateText(recordPath(layout, id));
  } catch (error) {
    return { problem: `the record could not be read (${error instanceof Error ? error.message : "error"})` };
  }
  if (read.kind === "missing") return undefined;
  if (read.kind === "foreign") return { problem: `the record is not this user's: ${read.problem}` };
  const json = parseStateJson(read.text);
  if (!json.ok) return { problem: `the record ${json.problem}` };
  const parsed = json.value;
  // Another program's record (the C2 app's own format) is unusable to gjc but is not damage.
  const foreign = foreignRecordOf(parsed, id);
  if (foreign !== undefined) return { problem: foreign.problem, foreign };
  const problem = recordProblem(parsed, id);
  return problem === undefined ? (parsed as InstalledRecord) : { problem };
}

/** Plain code-unit order: names are ASCII, and localeCompare would load ICU (~10 ms at start). */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What sorting needs: the manifest name and the installed id. */
type Named = { name: string; id: string };

function byNameThenId(a: Named, b: Named): number {
  return byCodeUnits(a.name.toLowerCase(), b.name.toLowerCase()) || byCodeUnits(a.id, b.id);
}

/** Records by lowercased name, then id (ids are unique: they are the directory names). */
export function sortByNameThenId<T extends Named>(records: readonly T[]): T[] {
  return [...records].sort(byNameThenId);
}

/** Broken directories by id. */
function sortById(broken: BrokenRecord[]): BrokenRecord[] {
  return [...broken].sort((a, b) => byCodeUnits(a.id, b.id));
}

/**
 * The entries of plugins/, after putting back a bundle whose update was killed between its two
 * commit renames (see restoreInterruptedCommits); undefined when there is no plugins/ yet.
 * Installed bundles are the entries that are directories and do not start with ".".
 */
export function listPluginEntries(layout: C2Layout): Dirent[] | undefined {
  const list = () => readdirSync(layout.plugins, { withFileTypes: true });
  let all: Dirent[];
  try {
    all = list();
  } catch {
    return undefined;
  }
  const names = all.map((e) => e.name);
  if (restoreInterruptedCommits(layout, names, () => lockHeld(layout.root, C2_LOCK_FILE))) all = list();
  return all;
}

export interface RecordScan {
  records: InstalledRecord[];
  broken: BrokenRecord[];
  /** Bundles another program (the C2 app) installed here: shown, never changed or deleted. */
  foreign: ForeignRecord[];
}

/** Every usable record plus the directories that hold a broken or a foreign one, sorted by name then id. */
export function scanRecords(layout: C2Layout): RecordScan {
  const entries = listPluginEntries(layout);
  return entries === undefined ? { records: [], broken: [], foreign: [] } : readListedRecords(layout, entries);
}

/** The full, fail-closed read of the bundles among `entries` (from listPluginEntries). */
export function readListedRecords(layout: C2Layout, entries: Dirent[]): RecordScan {
  const records: InstalledRecord[] = [];
  const broken: BrokenRecord[] = [];
  const foreign: ForeignRecord[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const name = entry.name;
    const r = readRecord(layout, name);
    if (r === undefined) broken.push({ id: name, problem: "no installed-plugin.json" });
    else if ("foreign" in r && r.foreign !== undefined) foreign.push(r.foreign);
    else if ("problem" in r) broken.push({ id: name, problem: r.problem });
    else records.push(r);
  }
  return {
    records: sortByNameThenId(records),
    broken: sortById(broken),
    foreign: [...foreign].sort((a, b) => byCodeUnits(a.id, b.id)),
  };
}

/** Installed C2 bundles with a usable record, sorted by name (broken ones are left out). */
export function listInstalledC2(ctx: Context): InstalledC2[] {
  const layout = c2Layout(ctx);
  return scanRecords(layout).records.map((r) => toInstalled(layout, r));
}

/**
 * Finds a bundle by installed id, `bundle:<id>`, or manifest name. A name that two sources
 * installed is ambiguous and refused with both ids, never guessed.
 */
export function findInstalledC2(ctx: Context, nameOrId: string): InstalledC2 | undefined {
  const layout = c2Layout(ctx);
  const record = findRecord(layout, nameOrId);
  return record ? toInstalled(layout, record) : undefined;
}

export function findRecord(layout: C2Layout, nameOrId: string): InstalledRecord | undefined {
  const key = idFromPolicyKey(nameOrId);
  if (/^[a-z0-9][a-z0-9-]*-[0-9a-f]{8}$/.test(key)) {
    const direct = readRecord(layout, key);
    if (direct && !("problem" in direct)) return direct;
  }
  // scanRecords also restores a bundle whose update was killed mid-commit.
  const matches = scanRecords(layout).records.filter((r) => r.name === key || r.id === key);
  if (matches.length > 1) {
    throw new GjcError({
      code: "ambiguous_plugin",
      message: `Several installed C2 bundles are named ${key}: ${matches.map((m) => m.id).join(", ")}.`,
      hint: "Name the bundle by its installed id.",
      exit: ExitCode.usage,
    });
  }
  return matches[0];
}

/** The foreign bundle (installed by another program) that `nameOrId` names, if any. */
export function findForeign(layout: C2Layout, nameOrId: string): ForeignRecord | undefined {
  const key = idFromPolicyKey(nameOrId);
  return scanRecords(layout).foreign.find((f) => f.id === key || f.name === key);
}

/** Like findRecord, but a missing bundle is an error that says how to see what is installed. */
export function requireRecord(layout: C2Layout, nameOrId: string): InstalledRecord {
  const record = findRecord(layout, nameOrId);
  if (!record) {
    const foreign = findForeign(layout, nameOrId);
    if (foreign !== undefined) throw foreignRecordError(foreign);
    throw new GjcError({
      code: "not_installed",
      message: `No C2 bundle named ${nameOrId} is installed.`,
      hint: 'Run "gjc plugin list" to see the installed bundles.',
    });
  }
  return record;
}

/** Rewrites a record in place (temp file, fsync, rename). */
export function writeRecord(layout: C2Layout, record: InstalledRecord): void {
  writeFileAtomic(recordPath(layout, record.id), serializeRecord(record));
}

export function pluginsDirEntries(layout: C2Layout): string[] {
  try {
    return readdirSync(layout.plugins);
  } catch {
    return [];
  }
}
