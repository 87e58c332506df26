import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../../src/bundle/hash.ts";
import { cleanLeftovers } from "../../../src/c2store/leftovers.ts";
import { setC2Enabled, setC2Trusted, uninstallC2, verifyC2 } from "../../../src/c2store/lifecycle.ts";
import { c2Layout } from "../../../src/c2store/paths.ts";
import { policyCatalog } from "../../../src/c2store/policy-catalog.ts";
import { serializeRecord } from "../../../src/c2store/record.ts";
import { recordsIndexPath, refreshRecordsIndex, scanRecordFacts } from "../../../src/c2store/records-index.ts";
import { readRecord, scanRecords } from "../../../src/c2store/records.ts";
import { snapshotTree } from "../../helpers/tmp.ts";
import { c2Home, refusal, runtimeBundle, skillsBundle, type C2Home } from "./_bundles.ts";

const homes: C2Home[] = [];
afterEach(() => homes.splice(0).forEach((h) => h.cleanup()));

async function store(count = 3) {
  const h = c2Home();
  homes.push(h);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const spec = i % 2 === 0 ? runtimeBundle(`b${i}`) : skillsBundle(`b${i}`);
    ids.push((await h.install(h.bundle(`src/b${i}`, spec))).c2.id);
  }
  return { h, ids, layout: c2Layout(h.ctx), index: join(h.data, "installed-index.json") };
}

/** Rewrites the index body and its digest, as only a deliberate edit could. */
function editIndex(path: string, edit: (body: string) => string): void {
  const text = readFileSync(path, "utf8");
  const body = edit(text.slice(text.indexOf("\n") + 1));
  writeFileSync(path, `${JSON.stringify({ format: 4, sha256: sha256Hex(body) })}\n${body}`);
}

/** The catalog's facts as the full read gives them (the records themselves). */
function fullFacts(layout: ReturnType<typeof c2Layout>) {
  return scanRecords(layout).records.map((r) => [r.id, r.name, r.version, r.enabled, r.trusted, r.updated_at]);
}
const factsRows = (facts: ReturnType<typeof scanRecordFacts>["records"]) =>
  facts.map((r) => [r.id, r.name, r.version, r.enabled, r.trusted, r.updated_at]);

describe("records index", () => {
  test("install writes it; the catalog uses it while it matches, with the same result as the full read", async () => {
    const { h, layout, index } = await store();
    expect(existsSync(index)).toBe(true);
    expect(recordsIndexPath(layout)).toBe(index);
    const viaIndex = policyCatalog(h.ctx);
    const projectViaIndex = policyCatalog(h.ctx, { project: h.root });
    rmSync(index);
    expect(policyCatalog(h.ctx)).toEqual(viaIndex);
    expect(policyCatalog(h.ctx, { project: h.root })).toEqual(projectViaIndex);
    expect(factsRows(scanRecordFacts(layout).records)).toEqual(fullFacts(layout));

    // Proof that a matching index is what the catalog read: an edit with a valid digest shows.
    refreshRecordsIndex(layout);
    editIndex(index, (body) => body.replace('"name":"b1"', '"name":"edited"'));
    expect(policyCatalog(h.ctx).plugins.map((p) => p.name)).toContain("edited");
  });

  test("any difference from the store falls back to the full read", async () => {
    const cases: [string, (s: Awaited<ReturnType<typeof store>>) => void][] = [
      [
        "a record edited in place",
        ({ layout, ids }) => {
          const path = join(layout.plugins, ids[1], "installed-plugin.json");
          const record = readRecord(layout, ids[1]) as Record<string, unknown>;
          writeFileSync(path, serializeRecord({ ...record, trusted: true } as never));
        },
      ],
      [
        "a record touched (same bytes)",
        ({ layout, ids }) => {
          const path = join(layout.plugins, ids[1], "installed-plugin.json");
          utimesSync(path, new Date(), new Date(Date.now() + 5000));
        },
      ],
      [
        "a bundle directory removed by hand",
        ({ layout, ids }) => rmSync(join(layout.plugins, ids[2]), { recursive: true }),
      ],
      ["a directory without a record", ({ layout }) => mkdirSync(join(layout.plugins, "stray-00000000"))],
      [
        "a damaged digest",
        ({ index }) => writeFileSync(index, readFileSync(index, "utf8").replace(/"sha256":"./, '"sha256":"x')),
      ],
      ["a truncated index", ({ index }) => writeFileSync(index, readFileSync(index, "utf8").slice(0, 200))],
      [
        "another format",
        ({ index }) => writeFileSync(index, readFileSync(index, "utf8").replace('"format":4', '"format":5')),
      ],
      [
        "an extra indexed bundle",
        ({ index }) =>
          editIndex(index, (body) => body.replace("[{", '[{"id":"gone-00000000","stamp":"1:1:1","facts":{}},{')),
      ],
      [
        "a repeated entry",
        ({ index }) => editIndex(index, (body) => body.replace(/^\[(\{.*?"facts":\{.*?\}\}\}),/, "[$1,$1,")),
      ],
      ["not an array", ({ index }) => editIndex(index, () => "{}")],
    ];
    for (const [what, change] of cases) {
      const s = await store();
      // A marker that only the index holds: seeing it means the index was used.
      editIndex(s.index, (body) => body.replace('"name":"b0"', '"name":"marker"'));
      expect([what, scanRecordFacts(s.layout).records.some((r) => r.name === "marker")]).toEqual([what, true]);
      change(s);
      const scan = scanRecordFacts(s.layout);
      expect([what, factsRows(scan.records)]).toEqual([what, fullFacts(s.layout)]);
      expect([what, scan.broken]).toEqual([what, scanRecords(s.layout).broken]);
    }
  });

  test("is rewritten by enable, trust, verify and uninstall, never by a refusal", async () => {
    const { h, ids, layout, index } = await store();
    const marked = () => editIndex(index, (body) => body.replace('"name":"b1"', '"name":"marker"'));
    const usesOld = () => scanRecordFacts(layout).records.some((r) => r.name === "marker");
    const steps: [string, () => Promise<unknown>][] = [
      ["disable", () => setC2Enabled(h.ctx, "b1", false)],
      ["trust", () => setC2Trusted(h.ctx, "b0", true)],
      [
        "verify with drift",
        async () => {
          writeFileSync(join(layout.plugins, ids[0], "bundle", "plugin.js"), "process.exit(1);\n");
          await verifyC2(h.ctx);
        },
      ],
      ["uninstall", () => uninstallC2(h.ctx, "b2")],
    ];
    for (const [what, step] of steps) {
      marked();
      await step();
      // Rewritten from the records: it matches again, and the marker is gone.
      expect([what, usesOld()]).toEqual([what, false]);
      expect([what, readFileSync(index, "utf8").includes('"name":"marker"')]).toEqual([what, false]);
      expect([what, factsRows(scanRecordFacts(layout).records)]).toEqual([what, fullFacts(layout)]);
    }
    expect(readRecord(layout, ids[0])).toMatchObject({ trusted: true, quarantine: { reason: "runtime_mismatch" } });

    const before = snapshotTree(h.data);
    expect(await refusal(() => setC2Trusted(h.ctx, "nope", true))).toMatchObject({ code: "not_installed" });
    expect(await refusal(() => h.install(h.bundle("src/b1", skillsBundle("b1", "2.0.0"))))).toMatchObject({
      code: "already_installed",
    });
    expect(snapshotTree(h.data)).toEqual(before);
  });

  test("is not written while a bundle directory holds no usable record", async () => {
    const { h, layout, index } = await store(2);
    rmSync(index);
    mkdirSync(join(layout.plugins, "stray-00000000"));
    await setC2Trusted(h.ctx, "b0", true);
    expect(existsSync(index)).toBe(false);
    const catalog = policyCatalog(h.ctx);
    expect(catalog.broken).toEqual([{ id: "stray-00000000", problem: "no installed-plugin.json" }]);
    expect(catalog.plugins.map((p) => p.name)).toEqual(["b0", "b1"]);
  });

  test("a record whose manifest has an unexpected shape keeps the store on the full read", async () => {
    const { h, ids, layout, index } = await store(2);
    rmSync(index);
    const path = join(layout.plugins, ids[0], "installed-plugin.json");
    const record = JSON.parse(readFileSync(path, "utf8"));
    delete record.manifest.codetwo.runtime; // still a usable record: runtime is not null, commands are declared
    writeFileSync(path, serializeRecord(record));
    await setC2Trusted(h.ctx, "b1", true);
    expect(existsSync(index)).toBe(false);
    expect(policyCatalog(h.ctx).plugins[0]).toMatchObject({
      name: "b0",
      hasRuntime: true,
      metadata: { scopeSupport: ["user"] },
    });
  });

  test("a temp file left by a killed index write is cleaned with the other leftovers", async () => {
    const { layout, index } = await store(1);
    const temp = join(layout.root, ".installed-index.json.tmp-123-abc");
    writeFileSync(temp, "partial");
    expect(cleanLeftovers(layout)).toContain("removed .installed-index.json.tmp-123-abc");
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(index)).toBe(true);
  });
});
