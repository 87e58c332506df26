/**
 * C2 bundles in the user set: the lock records them (trusted as the set expects), and a sync
 * on a fresh machine installs them at the locked integrity but never raises trust: a bundle
 * the set expects trusted is reported (needs trust, exit 3) unless --trust names it.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeTree } from "../helpers/tmp.ts";
import { runtimeBundle, skillsBundle } from "../unit/c2store/_bundles.ts";
import { writeBundle } from "./gjc-install-fixture.ts";
import { errorOf, fileHashes, makeSetWorld, type SetWorld } from "./sets-fixture.ts";

let worlds: SetWorld[] = [];
afterEach(() => {
  for (const w of worlds) w.cleanup();
  worlds = [];
});
const world = () => {
  const w = makeSetWorld();
  worlds.push(w);
  return w;
};
const userLock = (w: SetWorld) => join(w.home, ".gjc", "agent", "plugins.lock.json");
// The C2 rows of \`plugin list\`, with their family facts (id, trusted) beside name and enabled.
const c2Rows = async (w: SetWorld) =>
  (
    (await w.gjc(["plugin", "list", "--json"])).json().bundles as {
      family: string;
      name: string;
      enabled: boolean;
      c2: { id: string; trusted: boolean };
    }[]
  )
    .filter((b) => b.family === "c2")
    .map((b) => ({ name: b.name, enabled: b.enabled, id: b.c2.id, trusted: b.c2.trusted }));

describe("C2 bundles in a set", () => {
  test("lock --user records C2 bundles; sync on a fresh machine installs them and reports needs trust until --trust names the bundle", async () => {
    const a = world();
    const demo = writeTree(join(a.root, "src", "demo"), runtimeBundle("demo"));
    const notes = writeTree(join(a.root, "src", "notes"), skillsBundle("notes"));
    for (const d of [demo, notes]) expect((await a.gjc(["plugin", "install", d])).exitCode).toBe(0);
    expect((await a.gjc(["plugin", "trust", "demo"])).exitCode).toBe(0);
    expect((await a.gjc(["plugin", "disable", "notes"])).exitCode).toBe(0);
    expect((await a.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
    const lock = JSON.parse(readFileSync(userLock(a), "utf8"));
    expect(
      lock.bundles.map((e: { name: string; family: string; enabled: boolean; c2: unknown }) => [
        e.name,
        e.family,
        e.enabled,
        e.c2,
      ]),
    ).toEqual([
      ["demo", "c2", true, { trusted: true }],
      ["notes", "c2", false, { trusted: false }],
    ]);
    expect((await a.gjc(["plugin", "lock", "--user", "--check"])).exitCode).toBe(0);
    const rowsA = await c2Rows(a);

    const b = world();
    mkdirSync(join(b.home, ".gjc", "agent"), { recursive: true });
    cpSync(userLock(a), userLock(b));
    const r = await b.gjc(["plugin", "sync", "--user", "--json"]);
    expect(r.exitCode).toBe(3);
    expect(r.json()).toMatchObject({ ok: false, needsTrust: ["demo"] });
    expect(r.stdout).toContain('"needsTrust": true');
    const rowsB = await c2Rows(b);
    expect(rowsB.map((x) => [x.name, x.enabled, x.trusted])).toEqual([
      ["demo", true, false],
      ["notes", false, false],
    ]);
    expect(rowsB.map((x) => x.id)).toEqual(rowsA.map((x) => x.id));
    const idOf = (rows: { name: string; id: string }[], n: string) => rows.find((x) => x.name === n)!.id;
    expect(fileHashes(join(b.home, ".codetwo", "plugins", idOf(rowsB, "demo"), "bundle"))).toEqual(
      fileHashes(join(a.home, ".codetwo", "plugins", idOf(rowsA, "demo"), "bundle")),
    );
    const human = await b.gjc(["plugin", "sync", "--user"]);
    expect({ exit: human.exitCode, out: human.stdout }).toMatchObject({
      exit: 3,
      out: expect.stringContaining("needs trust: demo"),
    });

    const wrong = await b.gjc(["plugin", "sync", "--user", "--trust", "notes", "--json"]);
    expect({ exit: wrong.exitCode, code: errorOf(wrong).code }).toEqual({ exit: 2, code: "invalid_option_value" });
    const trusted = await b.gjc(["plugin", "sync", "--user", "--trust", "demo", "--json"]);
    expect(trusted.exitCode).toBe(0);
    expect((await c2Rows(b)).map((x) => [x.name, x.trusted])).toEqual([
      ["demo", true],
      ["notes", false],
    ]);
    expect((await b.gjc(["plugin", "lock", "--user", "--check"])).exitCode).toBe(0);
    expect((await b.gjc(["plugin", "verify"])).exitCode).toBe(0);
  });
});

describe("the project's C2 policy in the project lock", () => {
  test("lock --project records it (never config), --check sees a change, sync --project puts it back; --frozen without the bundle is lock_unsettled", async () => {
    const a = world();
    const demo = writeTree(join(a.root, "src", "demo"), runtimeBundle("demo"));
    expect((await a.gjc(["plugin", "install", demo])).exitCode).toBe(0);
    const plan = await a.gjc([
      "plugin",
      "policy",
      "plan",
      "demo",
      "--state",
      "disabled",
      "--project",
      ".",
      "--config",
      '{"secret":"s3cret"}',
      "--json",
    ]);
    expect(plan.exitCode).toBe(0);
    expect((await a.gjc(["plugin", "policy", "apply", plan.json().token])).exitCode).toBe(0);
    const ui = await a.gjc([
      "plugin",
      "policy",
      "plan",
      "demo",
      "--state",
      "disabled",
      "--component",
      "ui:go",
      "--project",
      ".",
      "--json",
    ]);
    expect(ui.exitCode).toBe(0);
    expect((await a.gjc(["plugin", "policy", "apply", ui.json().token])).exitCode).toBe(0);

    expect((await a.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
    const text = readFileSync(a.lock, "utf8");
    expect(JSON.parse(text).c2Policy).toEqual([
      { name: "demo", state: "disabled", components: { "ui:go": "disabled" } },
    ]);
    expect(text).not.toContain("s3cret");
    expect((await a.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);

    expect((await a.gjc(["plugin", "policy", "reset", "demo", "--project", "."])).exitCode).toBe(0);
    const check = await a.gjc(["plugin", "lock", "--project", "--check", "--json"]);
    expect(check.exitCode).toBe(1);
    expect(check.json().differences).toEqual([{ name: "demo", family: "c2", kind: "changed", fields: ["c2Policy"] }]);
    const sync = await a.gjc(["plugin", "sync", "--project", "--json"]);
    expect({ exit: sync.exitCode, err: sync.stderr }).toMatchObject({ exit: 0 });
    expect(sync.json().items).toContainEqual({ name: "demo", family: "c2", action: "policy", reasons: [] });
    expect((await a.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
    const catalog = (await a.gjc(["plugin", "policy", "catalog", "--project", ".", "--json"])).json();
    expect(catalog.plugins[0]).toMatchObject({ name: "demo", state: "disabled", trusted: false });
    expect(catalog.plugins[0].components).toEqual({ [`${catalog.plugins[0].id}:ui:go`]: "disabled" });

    // A lock whose policy names a C2 bundle it neither lists nor finds installed (edited by hand) is not settled.
    const b = world();
    mkdirSync(join(b.project, ".gjc"), { recursive: true });
    const edited = JSON.parse(text);
    edited.bundles = edited.bundles.filter((e: { family: string }) => e.family !== "c2");
    writeFileSync(b.lock, JSON.stringify(edited));
    const frozen = await b.gjc(["plugin", "sync", "--project", "--frozen", "--json"]);
    expect({ exit: frozen.exitCode, code: errorOf(frozen).code }).toEqual({ exit: 1, code: "lock_unsettled" });
  });
});

describe("C2 bundles in the project lock", () => {
  test("the project's C2 bundles (those with project policy) are entries of the project lock; a fresh HOME and a checkout holding only the lock get them with sync --project --frozen, policy applied, trust only by --trust", async () => {
    const a = world();
    const demo = writeTree(join(a.root, "src", "demo"), runtimeBundle("demo"));
    const notes = writeTree(join(a.root, "src", "notes"), skillsBundle("notes"));
    const gg = writeBundle(join(a.root, "src", "gg"), "gg");
    for (const args of [
      ["install", demo],
      ["install", notes],
      ["trust", "demo"],
      ["install", gg, "--project"],
    ])
      expect((await a.gjc(["plugin", ...args])).exitCode).toBe(0);
    for (const extra of [[], ["--component", "ui:go"]]) {
      const plan = await a.gjc([
        "plugin",
        "policy",
        "plan",
        "demo",
        "--state",
        "disabled",
        ...extra,
        "--project",
        ".",
        "--json",
      ]);
      expect((await a.gjc(["plugin", "policy", "apply", plan.json().token])).exitCode).toBe(0);
    }
    expect((await a.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
    const lock = JSON.parse(readFileSync(a.lock, "utf8"));
    // notes has no policy in this project: it is the user's, not the project's set.
    expect(
      lock.bundles.map((e: { name: string; family: string; c2?: unknown }) => [e.name, e.family, e.c2 ?? null]),
    ).toEqual([
      ["demo", "c2", { trusted: true }],
      ["gg", "gjc", null],
    ]);
    expect(lock.c2Policy).toEqual([{ name: "demo", state: "disabled", components: { "ui:go": "disabled" } }]);
    expect((await a.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
    const rowsA = await c2Rows(a);

    const b = world();
    mkdirSync(join(b.project, ".gjc"), { recursive: true });
    cpSync(a.lock, b.lock);
    const r = await b.gjc(["plugin", "sync", "--project", "--frozen", "--json"]);
    expect({ exit: r.exitCode, err: r.stderr }).toMatchObject({ exit: 3 });
    expect(r.json()).toMatchObject({ ok: false, needsTrust: ["demo"] });
    const rowsB = await c2Rows(b);
    expect(rowsB.map((x) => [x.name, x.id, x.enabled, x.trusted])).toEqual([
      ["demo", rowsA.find((x) => x.name === "demo")!.id, true, false],
    ]);
    expect(fileHashes(join(b.home, ".codetwo", "plugins", rowsB[0].id, "bundle"))).toEqual(
      fileHashes(join(a.home, ".codetwo", "plugins", rowsB[0].id, "bundle")),
    );
    const catalog = (await b.gjc(["plugin", "policy", "catalog", "--project", ".", "--json"])).json();
    expect(catalog.plugins[0]).toMatchObject({ name: "demo", state: "disabled" });
    expect(catalog.plugins[0].components).toEqual({ [`bundle:${rowsB[0].id}:ui:go`]: "disabled" });
    // Only the trust is still missing: the check names it, --trust gives it.
    const check = await b.gjc(["plugin", "lock", "--project", "--check", "--json"]);
    expect(check.json().differences).toEqual([{ name: "demo", family: "c2", kind: "changed", fields: ["c2"] }]);
    const trusted = await b.gjc(["plugin", "sync", "--project", "--frozen", "--trust", "demo", "--json"]);
    expect({ exit: trusted.exitCode, err: trusted.stderr }).toMatchObject({ exit: 0 });
    expect((await b.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
    expect((await b.gjc(["plugin", "verify"])).exitCode).toBe(0);
    expect(readFileSync(b.lock, "utf8")).toBe(readFileSync(a.lock, "utf8"));
  });
});

describe("catalog links on a fresh machine", () => {
  test("a C2 bundle installed from a catalog entry is synced under the same link and installed id; lock --check passes there", async () => {
    const a = world();
    const cat = join(a.root, "cat");
    writeTree(join(cat, "alpha"), skillsBundle("alpha"));
    writeFileSync(
      join(cat, "marketplace.json"),
      JSON.stringify({
        standardVersion: "1.0.0",
        name: "team",
        plugins: [{ name: "alpha", version: "1.0.0", source: { kind: "local", path: "./alpha" } }],
      }),
    );
    expect((await a.gjc(["plugin", "install", `alpha@${cat}`])).exitCode).toBe(0);
    expect((await a.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
    const entry = JSON.parse(readFileSync(userLock(a), "utf8")).bundles[0];
    expect(entry.source.catalog).toEqual({ path: join(cat, "marketplace.json"), name: "team", entry: "alpha" });
    const inspectA = (await a.gjc(["plugin", "inspect", "alpha", "--json"])).json().bundle;

    const b = world();
    mkdirSync(join(b.home, ".gjc", "agent"), { recursive: true });
    cpSync(userLock(a), userLock(b));
    const r = await b.gjc(["plugin", "sync", "--user", "--frozen", "--json"]);
    expect({ exit: r.exitCode, err: r.stderr }).toMatchObject({ exit: 0 });
    const ib = await b.gjc(["plugin", "inspect", "alpha", "--json"]);
    if (ib.exitCode !== 0) throw new Error(ib.stderr + ib.stdout);
    const inspectB = ib.json().bundle;
    expect({
      id: inspectB.c2.id,
      catalog: inspectB.c2.catalog,
      identity: inspectB.c2.identity,
      source: inspectB.source.display,
    }).toEqual({
      id: inspectA.c2.id,
      catalog: inspectA.c2.catalog,
      identity: inspectA.c2.identity,
      source: inspectA.source.display,
    });
    expect((await b.gjc(["plugin", "lock", "--user", "--check"])).exitCode).toBe(0);
    expect(readFileSync(userLock(b), "utf8")).toBe(readFileSync(userLock(a), "utf8"));
  });
});

describe("outdated for C2 catalog entries", () => {
  test("the catalog's entry version against the installed one", async () => {
    const a = world();
    const cat = join(a.root, "cat");
    writeTree(join(cat, "alpha"), skillsBundle("alpha"));
    const catalog = (version: string) =>
      writeFileSync(
        join(cat, "marketplace.json"),
        JSON.stringify({
          standardVersion: "1.0.0",
          name: "team",
          plugins: [{ name: "alpha", version, source: { kind: "local", path: "./alpha" } }],
        }),
      );
    catalog("1.0.0");
    expect((await a.gjc(["plugin", "install", `alpha@${cat}`])).exitCode).toBe(0);
    const rowOf = async () => (await a.gjc(["plugin", "outdated", "--user", "--json"])).json().rows[0];
    expect(await rowOf()).toMatchObject({
      name: "alpha",
      family: "c2",
      status: "current",
      latest: { version: "1.0.0" },
    });
    writeTree(join(cat, "alpha"), skillsBundle("alpha", "1.1.0"));
    catalog("1.1.0");
    expect(await rowOf()).toMatchObject({
      status: "outdated",
      installed: { version: "1.0.0" },
      latest: { version: "1.1.0" },
    });
    const lock = await a.gjc(["plugin", "lock", "--user", "--json"]);
    expect(lock.json().bundles[0].source.catalog).toEqual({
      path: expect.stringContaining("cat"),
      name: "team",
      entry: "alpha",
    });
    // The catalog is read as every catalog is (its schema): a broken one or a dropped entry makes the row unreachable, with the reason's code.
    writeFileSync(
      join(cat, "marketplace.json"),
      JSON.stringify({
        standardVersion: "1.0.0",
        name: "team",
        plugins: [{ name: "alpha", version: 7, source: { kind: "local", path: "./alpha" } }],
      }),
    );
    expect(await rowOf()).toMatchObject({ status: "unreachable", reasons: [{ code: "not_in_catalog" }] });
    writeFileSync(join(cat, "marketplace.json"), "{");
    expect(await rowOf()).toMatchObject({
      status: "unreachable",
      reasons: [{ code: "invalid_catalog", message: expect.stringContaining("not valid UTF-8 JSON") }],
    });
  });
});

describe("sync repairs a C2 bundle in place", () => {
  test("a drifted catalog-installed bundle is repaired under its own id, catalog link kept (no second copy)", async () => {
    const a = world();
    const cat = join(a.root, "cat");
    writeTree(join(cat, "alpha"), skillsBundle("alpha"));
    writeFileSync(
      join(cat, "marketplace.json"),
      JSON.stringify({
        standardVersion: "1.0.0",
        name: "team",
        plugins: [{ name: "alpha", version: "1.0.0", source: { kind: "local", path: "./alpha" } }],
      }),
    );
    expect((await a.gjc(["plugin", "install", `alpha@${cat}`])).exitCode).toBe(0);
    expect((await a.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
    const [row] = await c2Rows(a);
    const skill = join(a.home, ".codetwo", "plugins", row.id, "bundle", "skills", "take-notes", "SKILL.md");
    const original = readFileSync(skill, "utf8");
    writeFileSync(skill, "tampered");
    const r = await a.gjc(["plugin", "sync", "--user", "--json"]);
    expect({ exit: r.exitCode, err: r.stderr }).toMatchObject({ exit: 0 });
    expect(r.json().items).toEqual([expect.objectContaining({ name: "alpha", action: "repair", from: "cache" })]);
    expect((await c2Rows(a)).map((x) => x.id)).toEqual([row.id]);
    expect(readFileSync(skill, "utf8")).toBe(original);
    expect((await a.gjc(["plugin", "lock", "--user", "--check"])).exitCode).toBe(0);
  });
});
