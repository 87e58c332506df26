/**
 * The plugin sets' machine-local documents (src/sets/disk-schemas.ts) as the current code writes
 * them pass their generated checks (so they are read back), TypeBox agrees with those checks,
 * and a file changed in one field is refused the way each reader fails closed: a cache entry is
 * a miss (and a set archive's entry is named with the bad field), a history is empty, a journal
 * signed for this user is journal_corrupt naming the field (unsigned, it is foreign and ignored), a known-projects list names no project.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Value } from "typebox/value";
import { entryDir, entryProblem, listCacheEntries, readCacheEntry } from "../../../src/store/cache.ts";
import { historyFile, readHistory } from "../../../src/sets/history.ts";
import { journalPath, readJournal, writeJournal, type Journal } from "../../../src/store/journal.ts";
import { knownProjects, rememberProject } from "../../../src/sets/known-projects.ts";
import { cacheRoot } from "../../../src/store/set-paths.ts";
import { signedStateText } from "../../../src/store/state-file.ts";
import { diskTypeboxSchema, generatedChecks, type DiskSchemaName } from "../../../scripts/disk-schemas-source.ts";
import { installSpec } from "../../../src/app/install.ts";
import { setBundleEnabled } from "../../../src/app/enable.ts";
import { writeBundle } from "../../e2e/gjc-install-fixture.ts";
import { sandboxPerTest } from "../../helpers/sandbox.ts";
import { skillsBundle } from "../c2store/_bundles.ts";

const generated = await generatedChecks();

const box = sandboxPerTest();

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const agree = (name: DiskSchemaName, doc: unknown) => {
  const fast = generated[name].check(doc);
  expect({ name, fast }).toEqual({ name, fast: Value.Check(diskTypeboxSchema(name) as never, doc) });
  return fast;
};

async function world() {
  const s = box();
  const ctx = s.context();
  await installSpec(ctx, { spec: writeBundle(join(s.root, "src", "gg"), "gg", { tools: ["g_a"] }), user: true });
  await installSpec(ctx, { spec: s.write("src/cc", skillsBundle("cc")) });
  await setBundleEnabled(ctx, "cc", false, {});
  return { s, ctx };
}

describe("the sets' on-disk documents", () => {
  test("cache entries: what putCacheEntry wrote is read back; one bad field is a miss, and entryProblem names it", async () => {
    const { ctx } = await world();
    const { entries, broken } = listCacheEntries(ctx);
    expect([entries.length, broken]).toEqual([2, []]);
    const e = entries[0];
    const file = join(entryDir(ctx, e.integrity), "entry.json");
    const doc = readJson(file);
    expect(agree("CacheEntry", doc)).toBe(true);

    const bad = { ...doc, files: [{ ...doc.files[0], mode: "0644" }, ...doc.files.slice(1)] };
    expect(agree("CacheEntry", bad)).toBe(false);
    expect(entryProblem(bad)).toBe("files[0].mode must be an integer, not a string (at /files/0/mode)");
    for (const other of [
      { ...doc, extra: 1 },
      { ...doc, files: [] },
      { ...doc, files: [{ ...doc.files[0], path: "../x" }] },
      { ...doc, files: [doc.files[0], doc.files[0]] },
    ])
      expect(entryProblem(other)).toBeString();
    writeFileSync(file, JSON.stringify(bad));
    expect(readCacheEntry(ctx, e.integrity)).toBeUndefined();
    expect(listCacheEntries(ctx).broken).toEqual([e.integrity]);
  });

  test("generations: read back as written; a malformed file is an empty history", async () => {
    const { ctx } = await world();
    const doc = readJson(historyFile(ctx, "user"));
    expect(agree("SetHistory", doc)).toBe(true);
    expect(readHistory(ctx, "user").generations.map((g) => g.generation)).toEqual([1, 2, 3]);
    const bad = {
      ...doc,
      generations: [{ ...doc.generations[0], bundles: [{ ...doc.generations[0].bundles[0], integrity: "md5:x" }] }],
    };
    expect(agree("SetHistory", bad)).toBe(false);
    writeFileSync(historyFile(ctx, "user"), JSON.stringify(bad));
    expect(readHistory(ctx, "user").generations).toEqual([]);
    // Another scope's history is not this scope's.
    writeFileSync(historyFile(ctx, "user"), JSON.stringify({ ...doc, scope: "project" }));
    expect(readHistory(ctx, "user").generations).toEqual([]);
  });

  test("the journal: read back as written; one bad field is journal_corrupt naming the field", async () => {
    const { ctx } = await world();
    const bundles = readHistory(ctx, "user").generations.at(-1)!.bundles;
    const j: Journal = {
      version: 1,
      scope: "user",
      command: "gjc plugin sync",
      startedAt: new Date(0).toISOString(),
      step: "sync",
      forward: { bundles, only: bundles.map((b) => `${b.family}:${b.name}`), remove: [], trust: [] },
      backward: {
        bundles: [],
        only: bundles.map((b) => `${b.family}:${b.name}`),
        remove: bundles.map((b) => `${b.family}:${b.name}`),
        trust: [],
      },
    };
    writeJournal(ctx, j);
    const path = journalPath(ctx, "user");
    expect(agree("SetJournal", readJson(path))).toBe(true);
    expect(readJournal(ctx, "user")).toEqual(j);

    const cases: [unknown, string][] = [
      [
        { ...j, forward: { ...j.forward, trust: "cc" } },
        "forward.trust must be an array, not a string (at /forward/trust)",
      ],
      [{ ...j, backward: { ...j.backward, bundles: [{ ...bundles[0], files: 0 }] } }, "(at /backward/bundles/0/files)"],
      [{ ...j, scope: "project" }, "it belongs to the project scope (at /scope)"],
    ];
    for (const [doc, problem] of cases) {
      // Signed for this user, so the reader gets as far as the field (an unsigned one is foreign: below).
      writeFileSync(path, typeof doc === "string" ? doc : signedStateText(ctx, "transaction:user", doc as object));
      let error: { code?: string; message?: string; details?: { problem?: string } } = {};
      try {
        readJournal(ctx, "user");
      } catch (e) {
        error = e as typeof error;
      }
      expect({ code: error.code, problem: error.details?.problem }).toEqual({
        code: "journal_corrupt",
        problem: expect.stringContaining(problem),
      });
      expect(error.message).toContain(problem);
    }
    // The same journal without this user's signature, or signed for another purpose, is foreign: ignored, never refused over.
    for (const text of [
      JSON.stringify(j),
      signedStateText(ctx, "transaction:project", j),
      signedStateText(ctx, "generations:user", j),
      "{",
      `${"[".repeat(100000)}${"]".repeat(100000)}`,
    ]) {
      writeFileSync(path, text);
      expect(readJournal(ctx, "user")).toBeUndefined();
    }
  });

  test("known projects: read back as written (existing directories only); a malformed file names none", async () => {
    const { s, ctx } = await world();
    const a = join(s.root, "pa");
    mkdirSync(a, { recursive: true });
    rememberProject(ctx, a);
    rememberProject(ctx, join(s.root, "gone"));
    const file = join(cacheRoot(ctx), "projects.json");
    expect(agree("KnownProjects", readJson(file))).toBe(true);
    expect(knownProjects(ctx)).toEqual([a]);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify([a, 7]));
    expect(agree("KnownProjects", readJson(file))).toBe(false);
    expect(knownProjects(ctx)).toEqual([]);
  });
});
