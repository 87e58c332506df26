import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createContext } from "../../../src/core/context.ts";
import { graphRevision } from "../../../src/c2store/graph-revision.ts";
import { c2Layout } from "../../../src/c2store/paths.ts";
import { recordProblem, serializeRecord, type InstalledRecord } from "../../../src/c2store/record.ts";
import { scanRecords } from "../../../src/c2store/records.ts";
import { sha256Hex } from "../../../src/bundle/hash.ts";
import { tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest("gjc-c2records-");

/** A complete, valid record (keys in the order gjc writes them). */
function record(id: string, name = id.slice(0, id.lastIndexOf("-")), extra: Partial<InstalledRecord> = {}): InstalledRecord {
  return {
    schema_version: 1,
    id,
    name,
    version: "1.0.0",
    standard_version: "1.2.0",
    enabled: true,
    trusted: false,
    scope: "user",
    source: { kind: "local", spec: "/src", display: "/src", identity: "local/src", resolved: { uri: "/src" }, catalog: null },
    installed_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    files: [{ path: "plugin.json", size: 10, mode: 0o644, sha256: "0".repeat(64) }],
    total_bytes: 10,
    contributions: { skills: 0 },
    components: [],
    diagnostics: [],
    quarantine: null,
    manifest: {
      schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
      name,
      version: "1.0.0",
      keywords: [],
      extensions: {},
      codetwo: { standardVersion: "1.2.0", runtime: null, commands: [], ui: [], connectors: [], languageServers: [] },
    },
    ...extra,
  } as InstalledRecord;
}

const ID = "demo-0123abcd";
/** The record as parsed JSON, edited by `edit`, then checked against its directory name. */
function problemOf(edit: (r: Record<string, any>) => unknown = (r) => r, dir = ID): string | undefined {
  const r = JSON.parse(serializeRecord(record(ID))) as Record<string, any>;
  return recordProblem(edit(r), dir);
}

describe("installed record check", () => {
  test("a record as gjc writes it is usable, and so is one with its keys in another order", () => {
    expect(problemOf()).toBeUndefined();
    const reordered = (r: Record<string, any>) => Object.fromEntries(Object.entries(r).reverse());
    expect(problemOf(reordered)).toBeUndefined();
    expect(problemOf((r) => ({ ...r, source: Object.fromEntries(Object.entries(r.source).reverse()) }))).toBeUndefined();
    // A source without "catalog" was accepted before the fast key check and still is (only unknown keys are refused).
    expect(problemOf((r) => ({ ...r, source: (({ catalog, ...source }) => source)(r.source) }))).toBeUndefined();
  });

  test("every refusal names its reason", () => {
    const cases: [string, (r: Record<string, any>) => unknown][] = [
      ["the record is not a JSON object", () => null],
      ["the record is not a JSON object", () => [1]],
      ["the record is not a JSON object", () => "record"],
      ["record schema 2 is not supported", (r) => ({ ...r, schema_version: 2 })],
      ['unknown record field "extra"', (r) => ({ ...r, extra: 1 })],
      ['missing record field "quarantine"', ({ quarantine, ...r }) => r],
      ["invalid installed id", (r) => ({ ...r, id: "Demo-0123abcd" })],
      [`the record id other-0123abcd does not match its directory ${ID}`, (r) => ({ ...r, id: "other-0123abcd" })],
      ["name and version must be strings", (r) => ({ ...r, version: 1 })],
      ['C2 standard "1.1.0" is not supported', (r) => ({ ...r, standard_version: "1.1.0" })],
      ["enabled and trusted must be booleans", (r) => ({ ...r, trusted: "yes" })],
      ["scope must be user", (r) => ({ ...r, scope: "project" })],
      ["source must be an object", (r) => ({ ...r, source: [] })],
      ['unknown source field "token"', (r) => ({ ...r, source: { ...r.source, token: "x" } })],
      ["invalid source kind", (r) => ({ ...r, source: { ...r.source, kind: "npm" } })],
      ["invalid source", (r) => ({ ...r, source: { ...r.source, identity: 7 } })],
      ["invalid source.resolved", (r) => ({ ...r, source: { ...r.source, resolved: [] } })],
      ["invalid timestamps", (r) => ({ ...r, updated_at: null })],
      ["files must be an array", (r) => ({ ...r, files: {} })],
      ["invalid file entry", (r) => ({ ...r, files: [null] })],
      ["invalid file entry", (r) => ({ ...r, files: [[]] })],
      ["invalid file entry", (r) => ({ ...r, files: [{ path: "a", size: 1, mode: 1 }] })],
      ['unsafe file path "a/../b"', (r) => ({ ...r, files: [{ ...r.files[0], path: "a/../b" }] })],
      ["invalid contributions", (r) => ({ ...r, contributions: [] })],
      ["invalid contributions", (r) => ({ ...r, diagnostics: {} })],
      ["invalid quarantine", (r) => ({ ...r, quarantine: [] })],
      ["invalid quarantine", (r) => ({ ...r, quarantine: "files changed" })],
      ["the stored manifest does not match the record", (r) => ({ ...r, manifest: [] })],
      ["the stored manifest does not match the record", (r) => ({ ...r, manifest: { ...r.manifest, version: "2.0.0" } })],
      ["the stored manifest has no C2 extension", (r) => ({ ...r, manifest: { ...r.manifest, codetwo: [] } })],
      ["the stored manifest has no C2 extension", (r) => ({ ...r, manifest: { ...r.manifest, codetwo: { ...r.manifest.codetwo, commands: {} } } })],
      ["the stored manifest breaks the runtime/commands contract", (r) => ({ ...r, manifest: { ...r.manifest, codetwo: { ...r.manifest.codetwo, commands: [{ id: "x" }] } } })],
    ];
    for (const [reason, edit] of cases) expect([reason, problemOf(edit)]).toEqual([reason, reason]);
    expect(problemOf((r) => ({ ...r, quarantine: { reason: "runtime_mismatch", files: [], at: "" } }))).toBeUndefined();
  });

  test("keys that only join like the expected list are still refused", () => {
    // 17 keys whose comma-joined form equals the 18 expected ones: "id,name" is one key here.
    const faked = (r: Record<string, any>) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r)) {
        if (k === "id") out["id,name"] = v;
        else if (k !== "name") out[k] = v;
      }
      return out;
    };
    expect(problemOf(faked)).toBe('unknown record field "id,name"');
  });

  test("a file path is unsafe exactly when absolute or a segment is empty, '.' or '..'", () => {
    // Every string of up to 6 characters over "a", "." and "/", against the plain definition.
    const unsafe = (p: string) => p.startsWith("/") || p.split("/").some((s) => s === "" || s === "." || s === "..");
    let paths = [""];
    const all = [""];
    for (let length = 1; length <= 6; length++) {
      paths = paths.flatMap((p) => [`${p}a`, `${p}.`, `${p}/`]);
      all.push(...paths);
    }
    for (const path of all) {
      const problem = problemOf((r) => ({ ...r, files: [{ ...r.files[0], path }] }));
      expect([path, problem]).toEqual([path, unsafe(path) ? `unsafe file path ${JSON.stringify(path)}` : undefined]);
    }
  });
});

describe("scanning the installed records", () => {
  function storeWith(records: InstalledRecord[], brokenDirs: string[] = []) {
    const root = fresh();
    const layout = c2Layout(createContext({ env: { GJC_C2_DATA_DIR: root, HOME: root }, quiet: true }));
    for (const r of records) {
      mkdirSync(join(layout.plugins, r.id), { recursive: true });
      writeFileSync(join(layout.plugins, r.id, "installed-plugin.json"), serializeRecord(r));
    }
    for (const d of brokenDirs) mkdirSync(join(layout.plugins, d), { recursive: true });
    return layout;
  }

  const byNameThenId = (a: InstalledRecord, b: InstalledRecord) => {
    const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };

  test("records come sorted by lowercased name, then id; broken directories by id", () => {
    const records = [
      record("beta-00000001", "beta"),
      record("alpha-00000003", "Alpha"),
      record("alpha-00000002", "alpha"),
      record("alpha-x-00000004", "alpha-x"),
      record("al-00000005", "al"),
      record("alpha-00000001", "ALPHA"),
      record("b-00000006", "b"),
    ];
    const layout = storeWith(records, ["zz-00000000", "aa-00000000", "mm-00000000"]);
    const scan = scanRecords(layout);
    expect(scan.records.map((r) => r.id)).toEqual([...records].sort(byNameThenId).map((r) => r.id));
    expect(scan.broken.map((b) => b.id)).toEqual(["aa-00000000", "mm-00000000", "zz-00000000"]);
  });

  test("a name holding a NUL sorts as the comparator says", () => {
    const records = [record("a-00000001", "a\u0000b"), record("a-00000002", "a"), record("a-00000003", "a\u0001"), record("a-00000004", "a\u0000")];
    const scan = scanRecords(storeWith(records));
    expect(scan.records.map((r) => r.id)).toEqual([...records].sort(byNameThenId).map((r) => r.id));
  });
});

describe("graph revision", () => {
  /** The definition: rows [id, version, enabled, trusted, updated_at] in id order, hashed. */
  const oracle = (records: InstalledRecord[]) =>
    sha256Hex(JSON.stringify(records.map((r) => [r.id, r.version, r.enabled, r.trusted, r.updated_at]).sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0)))).slice(0, 16);

  test("is the hash of the rows in id order, whatever order the records come in", () => {
    const records = [record("b-00000002"), record("a-00000009", "a", { trusted: true }), record("c-00000001", "c", { enabled: false }), record("a-00000001")];
    expect(graphRevision(records)).toBe(oracle(records));
    expect(graphRevision([...records].reverse())).toBe(oracle(records));
    expect(graphRevision([])).toBe(oracle([]));
    // A list that repeats an id (never read from a store) keeps both rows.
    const repeated = [record("a-00000001"), record("a-00000001", "a", { version: "2.0.0" } as Partial<InstalledRecord>)];
    expect(graphRevision(repeated)).toBe(oracle(repeated));
  });
});
