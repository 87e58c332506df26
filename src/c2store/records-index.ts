/**
 * A derived, disposable index of the installed records for `gjc plugin policy catalog`: for
 * each bundle directory, the stamp of its installed-plugin.json and the facts the policy plane
 * reads from it (RecordFacts). The catalog stats each record instead of reading, parsing and
 * checking it; any difference (a bundle directory added or removed, a record rewritten or
 * edited, a crash between a commit and the index write, a damaged index) makes it take the
 * full, fail-closed read of scanRecords instead. Only commands that changed a record write the
 * index (after their commit, under the C2 lock), from a full read that found every record
 * usable; nothing but the catalog reads it, and the runtime and the policy plan never do.
 *
 * File: the store's derived-index layout (src/store/derived-index.ts: a header line with the
 * format and the body's digest), the body a JSON array of `{id, stamp, facts}`.
 */
import { readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";
import type { Static } from "typebox";
import type { RecordsIndexEntrySchema } from "../store/index-schemas.ts";
import { fileStamp, readDerivedIndex, writeDerivedIndex } from "../store/derived-index.ts";
import { RecordsIndex } from "../store/disk-schemas.generated.ts";
import { RECORD_FILE, recordPath, type C2Layout } from "./paths.ts";
import type { InstalledRecord, RecordFacts } from "./record.ts";
import type { ForeignRecord } from "./foreign-record.ts";
import { readListedRecords, readRecord, sortByNameThenId, listPluginEntries, type BrokenRecord } from "./records.ts";
import { commandSurface } from "../families/c2/command-surface.ts";
import type { C2Command } from "../families/c2/types.ts";

/**
 * Bumped whenever RecordFacts or the file layout changes, so an older index is simply not used
 * (3: the stamps are the store's fileStamp strings, src/store/derived-index.ts).
 */
const INDEX_FORMAT = 4;
export const RECORDS_INDEX_FILE = "installed-index.json";

type IndexEntry = Static<typeof RecordsIndexEntrySchema>;

export function recordsIndexPath(layout: C2Layout): string {
  return join(layout.root, RECORDS_INDEX_FILE);
}

const isIdList = (value: unknown): value is { id: string }[] => {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== "object" || item === null || typeof item.id !== "string") return false;
  return true;
};

/**
 * The facts of a usable record, or undefined when its stored manifest has an unexpected shape:
 * such a store is never indexed, so the catalog keeps reading it exactly as before.
 */
export function factsOf(record: InstalledRecord): RecordFacts | undefined {
  const codetwo = (record.manifest as { codetwo?: unknown }).codetwo as Record<string, unknown>;
  const runtime = codetwo.runtime as { scopeSupport?: unknown; inject?: unknown; optionalInject?: unknown } | null;
  let runtimeFacts: RecordFacts["manifest"]["codetwo"]["runtime"] = null;
  if (runtime !== null) {
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
    if (
      typeof runtime !== "object" ||
      !strings(runtime.scopeSupport) ||
      !strings(runtime.inject) ||
      !strings(runtime.optionalInject)
    )
      return undefined;
    runtimeFacts = {
      scopeSupport: [...runtime.scopeSupport],
      inject: [...runtime.inject],
      optionalInject: [...runtime.optionalInject],
    };
  }
  const { ui, connectors, languageServers } = codetwo;
  if (!isIdList(ui) || !isIdList(connectors) || !isIdList(languageServers) || !Array.isArray(codetwo.commands))
    return undefined;
  const commands = commandSurface(codetwo.commands as C2Command[]);
  const ids = (list: { id: string }[]) => list.map((item) => ({ id: item.id }));
  return {
    id: record.id,
    name: record.name,
    version: record.version,
    enabled: record.enabled,
    trusted: record.trusted,
    ...(record.capabilities ? { capabilities: { digest: record.capabilities.digest } } : {}),
    ...(record.trusted_capabilities ? { trusted_capabilities: { digest: record.trusted_capabilities.digest } } : {}),
    updated_at: record.updated_at,
    manifest: {
      codetwo: {
        runtime: runtimeFacts,
        commands,
        ui: ids(ui),
        connectors: ids(connectors),
        languageServers: ids(languageServers),
      },
    },
  };
}

/**
 * The facts of every installed bundle from the index, when the index matches `entries` (the
 * listing of plugins/) exactly: every bundle directory indexed, every record's stamp the same,
 * nothing indexed that is gone. Undefined on any difference.
 */
function indexedFacts(layout: C2Layout, entries: Dirent[]): RecordFacts[] | undefined {
  const indexed = readDerivedIndex(recordsIndexPath(layout), INDEX_FORMAT, RecordsIndex) as IndexEntry[] | undefined;
  if (indexed === undefined) return undefined;
  const byId = new Map(indexed.map((e) => [e.id, e]));
  const bundles = entries.filter((e) => e.isDirectory() && !e.name.startsWith("."));
  if (bundles.length !== indexed.length) return undefined;
  const facts: RecordFacts[] = [];
  for (const entry of bundles) {
    const known = byId.get(entry.name);
    if (known === undefined || known.stamp !== fileStamp(join(layout.plugins, entry.name, RECORD_FILE)))
      return undefined;
    facts.push(known.facts);
  }
  return facts;
}

/**
 * What the catalog shows: the installed bundles' facts, sorted by name then id, and the broken
 * directories. From the index when it matches; otherwise from the full read (scanRecords).
 */
export function scanRecordFacts(layout: C2Layout): {
  records: RecordFacts[];
  broken: BrokenRecord[];
  foreign: ForeignRecord[];
} {
  const entries = listPluginEntries(layout);
  if (entries === undefined) return { records: [], broken: [], foreign: [] };
  // A foreign bundle directory is never indexed, so an index that matches means there is none.
  const facts = indexedFacts(layout, entries);
  if (facts !== undefined) return { records: sortByNameThenId(facts), broken: [], foreign: [] };
  return readListedRecords(layout, entries);
}

/**
 * Rewrites the index after a command changed records (call it under the C2 lock, after the
 * commit). Nothing is written when the index already matches, or when any bundle directory
 * holds no usable record (the catalog then reads everything, and reports the broken one). A
 * failure here is ignored: the commit already happened, and a missing index only costs time.
 */
export function refreshRecordsIndex(layout: C2Layout): void {
  try {
    const entries = readdirSync(layout.plugins, { withFileTypes: true });
    if (indexedFacts(layout, entries) !== undefined) return;
    const indexed: IndexEntry[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      // Stamp first, then read: if the file changes in between, the stamp is the older one
      // and the next catalog simply does not match.
      const stamp = fileStamp(recordPath(layout, entry.name));
      const record = readRecord(layout, entry.name);
      if (stamp === undefined || record === undefined || "problem" in record) return;
      const facts = factsOf(record);
      if (facts === undefined) return;
      indexed.push({ id: entry.name, stamp, facts });
    }
    writeDerivedIndex(recordsIndexPath(layout), INDEX_FORMAT, indexed);
  } catch {
    // plugins/ is gone or the write failed: the catalog does the full read.
  }
}
