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
function record(
  id: string,
  name = id.slice(0, id.lastIndexOf("-")),
  extra: Partial<InstalledRecord> = {},
): InstalledRecord {
  return {
    schema_version: 1,
    id,
    name,
    version: "1.0.0",
    standard_version: "1.2.0",
    enabled: true,
    trusted: false,
    scope: "user",
    source: {
      kind: "local",
      spec: "/src",
      display: "/src",
      identity: "local/src",
      resolved: { uri: "/src" },
      catalog: null,
    },
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
    expect(
      problemOf((r) => ({ ...r, source: Object.fromEntries(Object.entries(r.source).reverse()) })),
    ).toBeUndefined();
    // A source without "catalog" was accepted before the fast key check and still is (only unknown keys are refused).
    expect(problemOf((r) => ({ ...r, source: (({ catalog, ...source }) => source)(r.source) }))).toBeUndefined();
  });

  test("every refusal names its reason", () => {
    const cases: [string, (r: Record<string, any>) => unknown][] = [
      ["the record is not a JSON object", () => null],
      ["the record is not a JSON object", () => [1]],
      ["the record is not a JSON object", () => "record"],
      ["record schema 2 is not supported", (r) => ({ ...r, schema_version: 2 })],
      ['An unknown field "extra" (at /extra)', (r) => ({ ...r, extra: 1 })],
      ['Missing the required field "quarantine" (at /quarantine)', ({ quarantine, ...r }) => r],
      [
        'id "Demo-0123abcd" is not valid (must match ^[a-z0-9][a-z0-9-]{0,60}-[0-9a-f]{8}$) (at /id)',
        (r) => ({ ...r, id: "Demo-0123abcd" }),
      ],
      [`the record id other-0123abcd does not match its directory ${ID}`, (r) => ({ ...r, id: "other-0123abcd" })],
      ["version must be a string, not an integer (at /version)", (r) => ({ ...r, version: 1 })],
      [
        'standard_version must be "1.2.0", not "1.1.0" (at /standard_version)',
        (r) => ({ ...r, standard_version: "1.1.0" }),
      ],
      ["trusted must be a boolean, not a string (at /trusted)", (r) => ({ ...r, trusted: "yes" })],
      ['scope must be "user", not "project" (at /scope)', (r) => ({ ...r, scope: "project" })],
      ["source must be an object, not an array (at /source)", (r) => ({ ...r, source: [] })],
      [
        'source has an unknown field "token" (at /source/token)',
        (r) => ({ ...r, source: { ...r.source, token: "x" } }),
      ],
      ['source.kind "npm" is not allowed (at /source/kind)', (r) => ({ ...r, source: { ...r.source, kind: "npm" } })],
      [
        "source.identity must be a string, not an integer (at /source/identity)",
        (r) => ({ ...r, source: { ...r.source, identity: 7 } }),
      ],
      [
        "source.resolved must be an object, not an array (at /source/resolved)",
        (r) => ({ ...r, source: { ...r.source, resolved: [] } }),
      ],
      ["updated_at must be a string, not null (at /updated_at)", (r) => ({ ...r, updated_at: null })],
      ["files must be an array, not an object (at /files)", (r) => ({ ...r, files: {} })],
      ["files[0] must be an object, not null (at /files/0)", (r) => ({ ...r, files: [null] })],
      ["files[0] must be an object, not an array (at /files/0)", (r) => ({ ...r, files: [[]] })],
      [
        'files[0] is missing the required field "sha256" (at /files/0/sha256)',
        (r) => ({ ...r, files: [{ path: "a", size: 1, mode: 1 }] }),
      ],
      [
        'files[0] has an unknown field "owner" (at /files/0/owner)',
        (r) => ({ ...r, files: [{ ...r.files[0], owner: "root" }] }),
      ],
      [
        "files[0].size must be a number, not a string (at /files/0/size)",
        (r) => ({ ...r, files: [{ ...r.files[0], size: "1" }] }),
      ],
      ['unsafe file path "a/../b" (at /files/0/path)', (r) => ({ ...r, files: [{ ...r.files[0], path: "a/../b" }] })],
      ["contributions must be an object, not an array (at /contributions)", (r) => ({ ...r, contributions: [] })],
      ["diagnostics must be an array, not an object (at /diagnostics)", (r) => ({ ...r, diagnostics: {} })],
      ["quarantine must be null, not an array (at /quarantine)", (r) => ({ ...r, quarantine: [] })],
      ["quarantine must be null, not a string (at /quarantine)", (r) => ({ ...r, quarantine: "files changed" })],
      [
        "quarantine.reason must be a string, not an integer (at /quarantine/reason)",
        (r) => ({ ...r, quarantine: { reason: 1, files: [], at: "" } }),
      ],
      ["manifest must be an object, not an array (at /manifest)", (r) => ({ ...r, manifest: [] })],
      [
        "the stored manifest does not match the record",
        (r) => ({ ...r, manifest: { ...r.manifest, version: "2.0.0" } }),
      ],
      [
        "manifest.codetwo must be an object, not an array (at /manifest/codetwo)",
        (r) => ({ ...r, manifest: { ...r.manifest, codetwo: [] } }),
      ],
      [
        "manifest.codetwo.commands must be an array, not an object (at /manifest/codetwo/commands)",
        (r) => ({ ...r, manifest: { ...r.manifest, codetwo: { ...r.manifest.codetwo, commands: {} } } }),
      ],
      [
        "the stored manifest breaks the runtime/commands contract",
        (r) => ({ ...r, manifest: { ...r.manifest, codetwo: { ...r.manifest.codetwo, commands: [{ id: "x" }] } } }),
      ],
      [
        'pass_env[0] "1A" is not valid (must match ^[A-Za-z_][A-Za-z0-9_]*$) (at /pass_env/0)',
        (r) => ({ ...r, pass_env: ["1A"] }),
      ],
      [
        'pass_env names "LD_PRELOAD", which may not pass to a plugin (at /pass_env/1)',
        (r) => ({ ...r, pass_env: ["LANG", "LD_PRELOAD"] }),
      ],
      [
        "pass_env must have at most 64 entries (at /pass_env)",
        (r) => ({ ...r, pass_env: Array.from({ length: 65 }, (_, i) => `V${i}`) }),
      ],
      ["capabilities must be an object, not a string (at /capabilities)", (r) => ({ ...r, capabilities: "all" })],
      [
        'capabilities.digest "sha256:x" is not valid (must match ^sha256:[0-9a-f]{64}$) (at /capabilities/digest)',
        (r) => ({
          ...r,
          capabilities: { digest: "sha256:x", processes: [], endpoints: [], env: [], hostCommands: [] },
        }),
      ],
      [
        "capabilities.digest does not match its capabilities",
        (r) => ({
          ...r,
          capabilities: { digest: `sha256:${"0".repeat(64)}`, processes: [], endpoints: [], env: [], hostCommands: [] },
        }),
      ],
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
    expect(problemOf(faked)).toBe('An unknown field "id,name" (at /id,name)');
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
      expect([path, problem]).toEqual([
        path,
        unsafe(path) ? `unsafe file path ${JSON.stringify(path)} (at /files/0/path)` : undefined,
      ]);
    }
  });
});

describe("scanning the installed records", () => {
  function storeWith(records: InstalledRecord[], brokenDirs: string[] = []) {
    const root = fresh();
    const layout = c2Layout(createContext({ env: { GJC_C2_DATA_DIR: root, HOME: root }, cwd: root, quiet: true }));
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
    const records = [
      record("a-00000001", "a\u0000b"),
      record("a-00000002", "a"),
      record("a-00000003", "a\u0001"),
      record("a-00000004", "a\u0000"),
    ];
    const scan = scanRecords(storeWith(records));
    expect(scan.records.map((r) => r.id)).toEqual([...records].sort(byNameThenId).map((r) => r.id));
  });
});

describe("graph revision", () => {
  /** The definition: rows [id, version, enabled, trusted, updated_at] in id order, hashed. */
  const oracle = (records: InstalledRecord[]) =>
    sha256Hex(
      JSON.stringify(
        records
          .map((r) => [r.id, r.version, r.enabled, r.trusted, r.updated_at])
          .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0)),
      ),
    ).slice(0, 16);

  test("is the hash of the rows in id order, whatever order the records come in", () => {
    const records = [
      record("b-00000002"),
      record("a-00000009", "a", { trusted: true }),
      record("c-00000001", "c", { enabled: false }),
      record("a-00000001"),
    ];
    expect(graphRevision(records)).toBe(oracle(records));
    expect(graphRevision([...records].reverse())).toBe(oracle(records));
    expect(graphRevision([])).toBe(oracle([]));
    // A list that repeats an id (never read from a store) keeps both rows.
    const repeated = [
      record("a-00000001"),
      record("a-00000001", "a", { version: "2.0.0" } as Partial<InstalledRecord>),
    ];
    expect(graphRevision(repeated)).toBe(oracle(repeated));
  });
});
