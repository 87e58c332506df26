/**
 * One transaction per scope across both families: a sync (or rollback) that changes GJC bundles
 * and C2 bundles is killed (-9) at the C2 half, after the GJC commit, in the middle of a C2
 * commit, between two C2 commits, and before its first commit. Right after the crash the
 * read-only check refuses to compare a half-changed set (exit 1, transaction_pending) and verify
 * still passes; the next sets verb (here `lock`, which then writes the lock from the installed
 * set) finishes the change, so the scope is exactly the old set or the new one: the sha256 and
 * mode of every installed file of both families, the choices and trust, and the lock written
 * byte for byte.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeTree } from "../helpers/tmp.ts";
import { runtimeBundle, skillsBundle } from "../unit/c2store/_bundles.ts";
import { crashPointsOf } from "../../src/store/crash-points.ts";
import { writeBundle } from "./gjc-install-fixture.ts";
import { errorOf, fileHashes, makeSetWorld, registry, type SetWorld } from "./sets-fixture.ts";

let w: SetWorld;
afterEach(() => w?.cleanup());

const userLock = () => join(w.home, ".gjc", "agent", "plugins.lock.json");

/** Everything a set is on disk: per bundle, version, choices, trust and every file's mode:sha256. */
async function stateOf() {
  const plugins = (() => {
    try {
      return registry(w.user).plugins;
    } catch {
      return []; // no GJC bundle in the user scope
    }
  })();
  const gjc = Object.fromEntries(
    plugins.map((p) => [p.name, { version: p.version, enabled: p.enabled, files: fileHashes(p.pluginRoot) }]),
  );
  const rows = (await w.gjc(["plugin", "list", "--json"])).json().bundles as {
    family: string;
    name: string;
    version: string;
    enabled: boolean;
    c2: { id: string; trusted: boolean };
  }[];
  const c2 = Object.fromEntries(
    rows
      .filter((r) => r.family === "c2")
      .map((r) => [
        r.name,
        {
          version: r.version,
          enabled: r.enabled,
          trusted: r.c2.trusted,
          id: r.c2.id,
          files: fileHashes(join(w.home, ".codetwo", "plugins", r.c2.id, "bundle")),
        },
      ]),
  );
  return { gjc, c2 };
}

/** A user set of one GJC and two C2 bundles (one trusted runtime), in two versions; returns both locks and states. */
async function twoSets() {
  w = makeSetWorld();
  const g = join(w.root, "src", "gg");
  const notes = join(w.root, "src", "notes");
  const demo = join(w.root, "src", "demo");
  writeBundle(g, "gg", { tools: ["g_a", "g_b"] });
  writeTree(notes, skillsBundle("notes"));
  writeTree(demo, runtimeBundle("demo"));
  for (const args of [
    ["install", g, "--user"],
    ["install", notes],
    ["install", demo],
    ["trust", "demo"],
    ["lock", "--user"],
  ])
    expect((await w.gjc(["plugin", ...args])).exitCode).toBe(0);
  const oldLock = readFileSync(userLock(), "utf8");
  const oldState = await stateOf();

  writeBundle(g, "gg", { version: "2.0.0", tools: ["g_a", "g_b"], body: "export default () => 2;" });
  writeTree(notes, skillsBundle("notes", "1.1.0"));
  writeTree(demo, runtimeBundle("demo", "2.0.0"));
  for (const args of [
    ["install", g, "--user", "--force"],
    ["install", notes, "--force"],
    ["install", demo, "--force"],
    ["disable", "notes"],
    ["lock", "--user"],
  ]) {
    expect((await w.gjc(["plugin", ...args])).exitCode).toBe(0);
  }
  const newLock = readFileSync(userLock(), "utf8");
  const newState = await stateOf();
  expect(newState).not.toEqual(oldState);

  // Back to the old set by sync (from the cache), so the crashing sync goes old -> new.
  writeFileSync(userLock(), oldLock);
  const back = await w.gjc(["plugin", "sync", "--user", "--trust", "demo"]);
  expect({ exit: back.exitCode, err: back.stderr }).toMatchObject({ exit: 0 });
  expect(await stateOf()).toEqual(oldState);
  writeFileSync(userLock(), newLock);
  return { oldLock, newLock, oldState, newState };
}

async function afterCrash(expectState: Awaited<ReturnType<typeof stateOf>>, expectLock: string) {
  const check = await w.gjc(["plugin", "lock", "--user", "--check", "--json"]);
  expect({ exit: check.exitCode, code: errorOf(check).code }).toEqual({ exit: 1, code: "transaction_pending" });
  // Each family's store is whole on its own even before the change is finished.
  expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
  // The next sets verb finishes the change first; the lock it then writes is the set it left.
  const lock = await w.gjc(["plugin", "lock", "--user"]);
  expect({ exit: lock.exitCode, err: lock.stderr }).toMatchObject({
    exit: 0,
    err: expect.stringContaining("interrupted"),
  });
  expect(await stateOf()).toEqual(expectState);
  expect(readFileSync(userLock(), "utf8")).toBe(expectLock);
  expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
  expect((await w.gjc(["plugin", "lock", "--user", "--check"])).exitCode).toBe(0);
  expect((await w.gjc(["plugin", "doctor", "--json"])).json().findings).toEqual([]);
}

describe("sync across both families is one transaction (kill -9)", () => {
  const steps: [string, "old" | "new", string][] = [
    ["sync:planned", "old", "content judged, nothing journaled yet"],
    ["sync:journaled", "new", "journal written, before any commit"],
    ["sync:committed", "new", "GJC registry committed, C2 untouched"],
    ["c2install:staged", "new", "GJC committed, first C2 bundle staged"],
    ["c2install:backed-up", "new", "in the middle of a C2 commit (old home set aside)"],
    ["c2install:committed", "new", "one C2 bundle committed, the other and the trust flip not"],
    ["sync:c2-done", "new", "every commit done, the journal not yet removed"],
  ];
  for (const [step, state, what] of steps) {
    test(`killed at ${step} (${what}) leaves the ${state} set`, async () => {
      const { oldLock, newLock, oldState, newState } = await twoSets();
      const crash = await w.gjc(["plugin", "sync", "--user", "--trust", "demo"], { env: { GJC_TEST_CRASH_AT: step } });
      expect(crash.exitCode).toBe(137);
      if (state === "old") {
        // Nothing was journaled: the set is the old one, and check compares it (it differs from the lock).
        expect(await stateOf()).toEqual(oldState);
        expect((await w.gjc(["plugin", "lock", "--user", "--check"])).exitCode).toBe(1);
        expect((await w.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
        expect(readFileSync(userLock(), "utf8")).toBe(oldLock);
        expect((await w.gjc(["plugin", "doctor", "--json"])).json().findings).toEqual([]);
        return;
      }
      await afterCrash(newState, newLock);
    });
  }
});

describe("upgrade --all across both families is one transaction (kill -9)", () => {
  // twoSets leaves the old set installed and every source at its new version: all three upgrade.
  test("not killed: every bundle of both families is upgraded, choices and trust kept, no journal left", async () => {
    const { oldState, newState } = await twoSets();
    const r = await w.gjc(["plugin", "upgrade", "--all", "--user", "--json"]);
    expect({ exit: r.exitCode, err: r.stderr }).toMatchObject({ exit: 0 });
    expect(
      r
        .json()
        .outcomes.map((o: { name: string; outcome: string }) => `${o.name}:${o.outcome}`)
        .sort(),
    ).toEqual(["demo:upgraded", "gg:upgraded", "notes:upgraded"]);
    const now = await stateOf();
    expect(now.gjc.gg).toEqual(newState.gjc.gg);
    expect(now.c2.demo).toEqual(newState.c2.demo);
    expect(now.c2.notes).toEqual({ ...newState.c2.notes, enabled: oldState.c2.notes.enabled });
    expect(existsSync(join(w.home, ".gjc", "agent", "plugins-history", "transaction.json"))).toBe(false);
  });

  // Its own points, and a kill inside each family's commit while the other family is still old.
  for (const step of [...crashPointsOf("upgrade-all"), "install:committed", "c2install:backed-up"]) {
    test(`killed at ${step}: the next sets verb undoes it, the old set of both families`, async () => {
      const { oldLock, oldState } = await twoSets();
      const crash = await w.gjc(["plugin", "upgrade", "--all", "--user"], { env: { GJC_TEST_CRASH_AT: step } });
      expect(crash.exitCode).toBe(137);
      const doctor = await w.gjc(["plugin", "doctor", "--user"]);
      expect(doctor.stdout).toContain('--fix would undo "gjc plugin upgrade --all"');
      await afterCrash(oldState, oldLock);
    });
  }
});

describe("store commands finish an interrupted change before their own", () => {
  test("after a sync killed between two C2 commits, an install and a C2 disable first finish it, so their change is not overwritten later", async () => {
    const { newState } = await twoSets();
    const crash = await w.gjc(["plugin", "sync", "--user", "--trust", "demo"], {
      env: { GJC_TEST_CRASH_AT: "c2install:committed" },
    });
    expect(crash.exitCode).toBe(137);
    const other = writeBundle(join(w.root, "src", "other"), "other");
    const install = await w.gjc(["plugin", "install", other, "--user"]);
    expect({ exit: install.exitCode, err: install.stderr }).toMatchObject({
      exit: 0,
      err: expect.stringContaining("interrupted"),
    });
    const { other: added, ...rest } = (await stateOf()).gjc;
    expect({ gjc: rest, c2: (await stateOf()).c2 }).toEqual(newState);
    expect(added.version).toBe("1.0.0");
    // No journal is left for a later sync to replay over what the user does next.
    expect((await w.gjc(["plugin", "enable", "notes"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "lock", "--user"])).stderr).not.toContain("interrupted");
    expect((await stateOf()).c2.notes.enabled).toBe(true);
  });
});

describe("a sync refused half-way is undone at once", () => {
  test("the C2 half refuses after the GJC commit (a command namespace taken): the GJC half is put back, no journal stays", async () => {
    w = makeSetWorld();
    const g = join(w.root, "src", "gg");
    writeBundle(g, "gg", { tools: ["g_a"] });
    expect((await w.gjc(["plugin", "install", g, "--user"])).exitCode).toBe(0);
    const v1 = fileHashes(registry(w.user).plugins[0].pluginRoot);
    // squat declares a command in the namespace "demo", which the bundle demo will own.
    const squat = join(w.root, "src", "squat");
    const tree = runtimeBundle("squat");
    const manifest = tree["plugin.json"] as {
      extensions: { "dev.codetwo": { commands: { id: string }[]; ui: { command: string }[] } };
    };
    manifest.extensions["dev.codetwo"].commands[0].id = "demo.run";
    manifest.extensions["dev.codetwo"].ui[0].command = "demo.run";
    writeTree(squat, tree);
    writeBundle(g, "gg", { version: "2.0.0", tools: ["g_a"], body: "export default () => 2;" });
    for (const args of [
      ["install", g, "--user", "--force"],
      ["install", squat],
      ["lock", "--user"],
      ["uninstall", "squat"],
    ])
      expect((await w.gjc(["plugin", ...args])).exitCode).toBe(0);
    const wanted = readFileSync(userLock(), "utf8");
    writeBundle(g, "gg", { tools: ["g_a"] });
    const demo = join(w.root, "src", "demo");
    writeTree(demo, runtimeBundle("demo"));
    for (const args of [
      ["install", g, "--user", "--force"],
      ["install", demo],
    ])
      expect((await w.gjc(["plugin", ...args])).exitCode).toBe(0);
    const before = await stateOf();
    expect(fileHashes(registry(w.user).plugins[0].pluginRoot)).toEqual(v1);

    writeFileSync(userLock(), wanted);
    const r = await w.gjc(["plugin", "sync", "--user", "--json"]);
    expect({ exit: r.exitCode, code: errorOf(r).code }).toEqual({ exit: 1, code: "command_conflict" });
    expect(r.stderr).not.toContain("could not undo");
    expect(await stateOf()).toEqual(before);
    expect(existsSync(join(w.home, ".gjc", "agent", "plugins-history", "transaction.json"))).toBe(false);
    expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "doctor", "--json"])).json().findings).toEqual([]);
  });
});

describe("a C2 rollback is one transaction (kill -9)", () => {
  test("killed after the content commit, before its choice is restored: the next sets verb finishes it", async () => {
    w = makeSetWorld();
    const notes = join(w.root, "src", "notes");
    writeTree(notes, skillsBundle("notes"));
    expect((await w.gjc(["plugin", "install", notes])).exitCode).toBe(0); // gen 1: 1.0.0 enabled
    expect((await w.gjc(["plugin", "disable", "notes"])).exitCode).toBe(0); // gen 2: 1.0.0 disabled
    const gen2 = await stateOf();
    writeTree(notes, skillsBundle("notes", "1.1.0"));
    expect((await w.gjc(["plugin", "install", notes, "--force"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "enable", "notes"])).exitCode).toBe(0);
    expect((await stateOf()).c2.notes).toMatchObject({ version: "1.1.0", enabled: true });

    const crash = await w.gjc(["plugin", "rollback", "notes", "--to", "2"], {
      env: { GJC_TEST_CRASH_AT: "c2install:committed" },
    });
    expect(crash.exitCode).toBe(137);
    // Half done on disk: the old files, the new choice.
    expect((await stateOf()).c2.notes).toMatchObject({ version: "1.0.0", enabled: true });
    expect((await w.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
    expect(await stateOf()).toEqual(gen2);
    const gens = (await w.gjc(["plugin", "history", "notes", "--user", "--json"])).json().generations;
    expect(gens[0].command).toBe("gjc plugin rollback notes --to 2 (finished after an interruption)");
    expect(
      JSON.parse(readFileSync(userLock(), "utf8")).bundles.map(
        (e: { name: string; version: string; enabled: boolean }) => [e.name, e.version, e.enabled],
      ),
    ).toEqual([["notes", "1.0.0", false]]);
    expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
  });
});

describe("sync --project with C2 bundles is one transaction (kill -9)", () => {
  for (const step of ["c2install:committed", "sync:c2-done", "c2policy:written"]) {
    test(`a fresh checkout's sync killed at ${step}: the next sync --frozen finishes it, policy included`, async () => {
      w = makeSetWorld();
      const demo = join(w.root, "src", "demo");
      writeTree(demo, runtimeBundle("demo"));
      const gg = writeBundle(join(w.root, "src", "gg"), "gg");
      for (const args of [
        ["install", demo],
        ["install", gg, "--project"],
      ])
        expect((await w.gjc(["plugin", ...args])).exitCode).toBe(0);
      for (const extra of [[], ["--component", "ui:go"]]) {
        const plan = await w.gjc([
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
        expect((await w.gjc(["plugin", "policy", "apply", plan.json().token])).exitCode).toBe(0);
      }
      expect((await w.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
      const lockText = readFileSync(w.lock, "utf8");
      const want = { c2: (await stateOf()).c2, gg: fileHashes(registry(w.projectScope).plugins[0].pluginRoot) };
      const policyOf = async () =>
        (await w.gjc(["plugin", "policy", "catalog", "--project", ".", "--json"]))
          .json()
          .plugins.map((p: { name: string; state: string; components: unknown }) => [p.name, p.state, p.components]);
      const policy = await policyOf();

      // The same machine made fresh: nothing installed, no policy, only the lock (and the cache).
      for (const args of [
        ["uninstall", "demo"],
        ["uninstall", "gg", "--project"],
      ])
        expect((await w.gjc(["plugin", ...args])).exitCode).toBe(0);
      expect(await policyOf()).toEqual([]);
      const crash = await w.gjc(["plugin", "sync", "--project", "--frozen"], { env: { GJC_TEST_CRASH_AT: step } });
      expect(crash.exitCode).toBe(137);
      const check = await w.gjc(["plugin", "lock", "--project", "--check", "--json"]);
      expect({ exit: check.exitCode, code: errorOf(check).code }).toEqual({ exit: 1, code: "transaction_pending" });
      const next = await w.gjc(["plugin", "sync", "--project", "--frozen"]);
      expect({ exit: next.exitCode, err: next.stderr }).toMatchObject({
        exit: 0,
        err: expect.stringContaining("interrupted"),
      });
      expect({ c2: (await stateOf()).c2, gg: fileHashes(registry(w.projectScope).plugins[0].pluginRoot) }).toEqual(
        want,
      );
      expect(await policyOf()).toEqual(policy);
      expect(readFileSync(w.lock, "utf8")).toBe(lockText);
      expect((await w.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
      expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
    });
  }
});

describe("doctor shows a pending set transaction and --fix finishes it", () => {
  test("a sync killed between two C2 commits: doctor reports transaction_pending (exit 1, what --fix does), --fix finishes it as the next sets verb would", async () => {
    const { newLock, newState } = await twoSets();
    const crash = await w.gjc(["plugin", "sync", "--user", "--trust", "demo"], {
      env: { GJC_TEST_CRASH_AT: "c2install:committed" },
    });
    expect(crash.exitCode).toBe(137);
    const journal = join(w.home, ".gjc", "agent", "plugins-history", "transaction.json");
    expect(existsSync(journal)).toBe(true);

    const look = await w.gjc(["plugin", "doctor", "--user", "--json"]);
    expect(look.exitCode).toBe(1);
    const pending = look.json().findings.filter((f: { kind: string }) => f.kind === "transaction_pending");
    expect(pending).toEqual([
      {
        family: "gjc",
        scope: "user",
        kind: "transaction_pending",
        severity: "error",
        path: journal,
        message: expect.stringContaining('"gjc plugin sync" on the user scope'),
        fix: expect.stringContaining("finish"),
        fixable: true,
        command: "gjc plugin doctor --fix --user",
      },
    ]);
    // Looking changes nothing: the journal is still there, the set still half changed.
    expect(existsSync(journal)).toBe(true);
    expect((await w.gjc(["plugin", "doctor", "--user"])).stdout).toContain('--fix would finish "gjc plugin sync"');
    // The project scope has no journal: nothing about it.
    expect(
      (await w.gjc(["plugin", "doctor", "--project", "--json"]))
        .json()
        .findings.filter((f: { kind: string }) => f.kind === "transaction_pending"),
    ).toEqual([]);

    const fix = await w.gjc(["plugin", "doctor", "--user", "--fix", "--json"]);
    expect({ exit: fix.exitCode, err: fix.stderr }).toMatchObject({
      exit: 0,
      err: expect.stringContaining("interrupted"),
    });
    expect(fix.json().findings.find((f: { kind: string }) => f.kind === "transaction_pending")).toMatchObject({
      fixed: true,
    });
    expect(existsSync(journal)).toBe(false);
    expect(await stateOf()).toEqual(newState);
    expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
    expect(readFileSync(userLock(), "utf8")).toBe(newLock);
    expect((await w.gjc(["plugin", "lock", "--user", "--check"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "doctor", "--json"])).json().findings).toEqual([]);
    const gens = (await w.gjc(["plugin", "history", "--user", "--json"])).json().generations;
    expect(gens[0].command).toBe("gjc plugin sync (finished after an interruption)"); // newest first
  });

  test("an edited journal is foreign (its signature no longer matches): shown as foreign_state and left alone by --fix", async () => {
    const { newState } = await twoSets();
    const crash = await w.gjc(["plugin", "sync", "--user", "--trust", "demo"], {
      env: { GJC_TEST_CRASH_AT: "sync:journaled" },
    });
    expect(crash.exitCode).toBe(137);
    const journal = join(w.home, ".gjc", "agent", "plugins-history", "transaction.json");
    const original = readFileSync(journal, "utf8");
    const j = JSON.parse(original);
    writeFileSync(journal, JSON.stringify({ ...j, forward: { ...j.forward, trust: [...j.forward.trust, "notes"] } }));
    const fix = await w.gjc(["plugin", "doctor", "--user", "--fix", "--json"]);
    expect(fix.json().findings.find((f: { kind: string }) => f.kind === "foreign_state")).toMatchObject({
      severity: "warning",
      path: journal,
      fixable: false,
    });
    expect(fix.stderr).toContain("foreign_state");
    expect(existsSync(journal)).toBe(true);
    // Once the journal is what gjc wrote again, --fix finishes the change.
    writeFileSync(journal, original);
    expect((await w.gjc(["plugin", "doctor", "--user", "--fix"])).exitCode).toBe(0);
    expect(await stateOf()).toEqual(newState);
  });
});
