/**
 * gjc plugin sync against real local git repositories and real tarballs: a fresh HOME and a
 * fresh project holding only the lock reproduce the set byte for byte; pins never move (a
 * branch that moves, a force-push); content that does not match the lock is refused for the
 * whole sync; --offline uses only the cache (in a network namespace without network);
 * extras, --frozen, --prune, repair and choices; kill -9 during the sync.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../helpers/git.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { writeBundle } from "./gjc-install-fixture.ts";
import { errorOf, fileHashes, makeSetWorld, netlessCli, registry, type SetWorld } from "./sets-fixture.ts";

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

/** Every installed file of a scope by bundle: { name: { path: "mode:sha256" } }. */
const installedFiles = (scopeRoot: string) =>
  Object.fromEntries(registry(scopeRoot).plugins.map((p) => [p.name, fileHashes(p.pluginRoot)]));

/** A first machine with a set: a git bundle on a branch, one on a tag, a real tarball, a local dir in the project. */
async function teamSet(w: SetWorld) {
  const branchy = w.repo("branchy", { tools: ["b_one", "b_two"] });
  const taggy = w.repo("taggy");
  taggy.tag("v1.0.0");
  const tarSrc = writeBundle(join(w.root, "tarsrc", "tarry"), "tarry", { files: { "tools/extra.txt": "x" } });
  const tgz = join(w.project, "vendor", "tarry.tgz");
  mkdirSync(join(w.project, "vendor"), { recursive: true });
  execFileSync("tar", ["czf", tgz, "-C", join(w.root, "tarsrc"), "tarry"]);
  const local = writeBundle(join(w.project, "bundles", "local"), "local");
  for (const src of [`${branchy.url}#main`, `${taggy.url}#v1.0.0`, "./vendor/tarry.tgz", "./bundles/local"]) {
    const r = await w.gjc(["plugin", "install", src, "--project"]);
    expect({ src, exit: r.exitCode, err: r.stderr }).toMatchObject({ src, exit: 0 });
  }
  expect((await w.gjc(["plugin", "disable", "branchy", "--project", "--surface", "tool:b_two"])).exitCode).toBe(0);
  expect((await w.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
  return { branchy, taggy, tgz, local };
}

/** A fresh machine: its own HOME and cache, and a project holding only the lock (and the files a checkout has). */
function freshCheckout(from: SetWorld, copy: string[] = []): SetWorld {
  const b = world();
  mkdirSync(join(b.project, ".gjc"), { recursive: true });
  cpSync(from.lock, b.lock);
  for (const rel of copy) cpSync(join(from.project, rel), join(b.project, rel), { recursive: true });
  // The same git config (repositories are on this machine's disk, outside both projects).
  cpSync(from.sandbox.config, b.sandbox.config);
  Object.assign(b.env, { GIT_CONFIG_GLOBAL: from.sandbox.config });
  return b;
}

describe("gjc plugin sync", () => {
  test("a fresh HOME and a project holding only the lock reproduce the set byte for byte (sync --frozen), and verify passes", async () => {
    const a = world();
    const { branchy } = await teamSet(a);
    const original = installedFiles(a.projectScope);
    const lockBytes = readFileSync(a.lock, "utf8");
    // The branch moves on: the lock's pin does not.
    branchy.commit({ "tools/b_one.ts": "export default () => 'moved';\n" });

    const b = freshCheckout(a, ["vendor", "bundles"]);
    const untouched = { project: snapshotTree(b.project), home: snapshotTree(b.home) };
    const dry = await b.gjc(["plugin", "sync", "--project", "--frozen", "--dry-run", "--json"]);
    expect({
      exit: dry.exitCode,
      dryRun: dry.json().dryRun,
      actions: dry.json().items.map((i: { action: string }) => i.action),
    }).toEqual({ exit: 0, dryRun: true, actions: ["install", "install", "install", "install"] });
    expect({ project: snapshotTree(b.project), home: snapshotTree(b.home) }).toEqual(untouched); // a dry run writes nothing, not even the cache
    const r = await b.gjc(["plugin", "sync", "--project", "--frozen", "--json"]);
    expect({ exit: r.exitCode, err: r.stderr }).toMatchObject({ exit: 0 });
    const doc = r.json();
    expect(doc.schema).toBe("gjc/sync@1");
    expect(
      doc.items.map((i: { name: string; action: string; from: string }) => `${i.name}:${i.action}:${i.from}`),
    ).toEqual(["branchy:install:source", "local:install:source", "taggy:install:source", "tarry:install:source"]);
    expect(installedFiles(b.projectScope)).toEqual(original);
    expect(readFileSync(b.lock, "utf8")).toBe(lockBytes); // --frozen never writes the lock
    expect((await b.gjc(["plugin", "verify"])).exitCode).toBe(0);
    expect((await b.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
    const reg = registry(b.projectScope).plugins.find((p) => p.name === "branchy")!;
    expect(reg.source.sha).toBe(
      JSON.parse(lockBytes).bundles.find((e: { name: string }) => e.name === "branchy").pin.commit,
    );
    expect((reg as unknown as { disabledSurfaceIds: string[] }).disabledSurfaceIds).toEqual(["tool:b_two"]);

    // Again: nothing to do; the content is in B's cache now.
    const again = await b.gjc(["plugin", "sync", "--project", "--frozen", "--json"]);
    expect(again.json().items.every((i: { action: string }) => i.action === "unchanged")).toBe(true);
  });

  test("--offline in a network namespace installs from the cache alone; a cache miss is offline_miss (exit 4) naming it, with nothing written", async () => {
    const a = world();
    await teamSet(a);
    const original = installedFiles(a.projectScope);
    const b = freshCheckout(a, ["vendor", "bundles"]);
    b.env.GJC_CACHE_DIR = join(b.root, "cache-copy");
    cpSync(a.cache, b.env.GJC_CACHE_DIR, { recursive: true });
    rmSync(join(a.root, "repos"), { recursive: true, force: true }); // the sources are gone too
    const inNamespace = netlessCli(b, ["plugin", "sync", "--project", "--frozen", "--offline", "--json"]);
    expect({ status: inNamespace.status, err: inNamespace.stderr }).toMatchObject({ status: 0 });
    expect(JSON.parse(inNamespace.stdout).items.map((i: { from: string }) => i.from)).toEqual([
      "cache",
      "cache",
      "cache",
      "cache",
    ]);
    expect(installedFiles(b.projectScope)).toEqual(original);

    const c = freshCheckout(a, ["vendor", "bundles"]); // empty cache
    const before = snapshotTree(c.project);
    const miss = await c.gjc(["plugin", "sync", "--project", "--offline", "--json"]);
    expect({ exit: miss.exitCode, code: errorOf(miss).code }).toEqual({ exit: 4, code: "offline_miss" });
    expect(miss.json().error.details.missing.map((m: { name: string }) => m.name)).toEqual([
      "branchy",
      "local",
      "taggy",
      "tarry",
    ]);
    expect(snapshotTree(c.project)).toEqual(before);
  });

  test("content that does not match the lock is lock_mismatch (exit 3) for the whole sync: a changed local dir, a replaced archive, a force-pushed pin", async () => {
    const a = world();
    const { branchy } = await teamSet(a);
    // A changed local bundle (same path, other bytes).
    const b = freshCheckout(a, ["vendor", "bundles"]);
    appendFileSync(join(b.project, "bundles", "local", "tools", "local_tool.ts"), "// changed\n");
    const before = { project: snapshotTree(b.project), home: snapshotTree(b.home) };
    const r = await b.gjc(["plugin", "sync", "--project", "--json"]);
    expect({ exit: r.exitCode, code: errorOf(r).code }).toEqual({ exit: 3, code: "lock_mismatch" });
    const lock = JSON.parse(readFileSync(a.lock, "utf8"));
    const localEntry = lock.bundles.find((e: { name: string }) => e.name === "local");
    expect(r.json().error.details.mismatches).toEqual([
      {
        name: "local",
        family: "gjc",
        what: "integrity",
        expected: localEntry.integrity,
        actual: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        source: "path ./bundles/local",
        origin: "source",
      },
    ]);
    expect(snapshotTree(b.project)).toEqual(before.project); // nothing written: not even the other three bundles
    expect(snapshotTree(b.home)).toEqual(before.home);

    // A replaced archive at the same path.
    const c = freshCheckout(a, ["vendor", "bundles"]);
    writeFileSync(
      join(c.project, "vendor", "tarry.tgz"),
      execFileSync("tar", ["cz", "-C", join(a.root, "repos"), "taggy"]),
    );
    const t = await c.gjc(["plugin", "sync", "--project", "--json"]);
    expect({ exit: t.exitCode, code: errorOf(t).code }).toEqual({ exit: 3, code: "lock_mismatch" });
    expect(t.json().error.details.mismatches[0]).toMatchObject({ name: "tarry", what: "pin" });

    // Force-push: main is rewritten with other content. The locked commit is still what sync
    // fetches (never the new head); a lock whose pin was moved to the rewritten commit (an
    // edited or merged lock) no longer matches its integrity.
    git(a.sandbox, branchy.dir, "commit", "-q", "--amend", "-m", "rewritten", "--allow-empty");
    writeFileSync(join(branchy.dir, "tools", "b_one.ts"), "export default () => 'evil';\n");
    git(a.sandbox, branchy.dir, "commit", "-q", "-am", "evil", "--amend");
    const rewritten = branchy.head();
    const d = freshCheckout(a, ["vendor", "bundles"]);
    const pinned = await d.gjc(["plugin", "sync", "--project", "--frozen", "--json"]);
    expect(pinned.exitCode).toBe(0);
    expect(installedFiles(d.projectScope).branchy).toEqual(installedFiles(a.projectScope).branchy);
    const moved = JSON.parse(readFileSync(a.lock, "utf8"));
    moved.bundles.find((e: { name: string }) => e.name === "branchy").pin.commit = rewritten;
    const e = freshCheckout(a, ["vendor", "bundles"]);
    writeFileSync(e.lock, JSON.stringify(moved, null, 2));
    const mismatch = await e.gjc(["plugin", "sync", "--project", "--json"]);
    expect({ exit: mismatch.exitCode, code: errorOf(mismatch).code }).toEqual({ exit: 3, code: "lock_mismatch" });
    expect(mismatch.json().error.details.mismatches).toMatchObject([
      { name: "branchy", what: "integrity", source: expect.stringContaining(rewritten.slice(0, 12)) },
    ]);
  });

  test("repairs drift and applies choices from the lock; extras are reported, --frozen refuses them, --prune removes them", async () => {
    const a = world();
    const x = writeBundle(join(a.root, "src", "x"), "xx", { tools: ["x_a", "x_b"] });
    const y = writeBundle(join(a.root, "src", "y"), "yy");
    expect((await a.gjc(["plugin", "install", x, "--user"])).exitCode).toBe(0);
    expect((await a.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
    const xRoot = registry(a.user).plugins[0].pluginRoot;
    const original = fileHashes(xRoot);
    appendFileSync(join(xRoot, "tools", "x_a.ts"), "// drift\n");
    expect((await a.gjc(["plugin", "disable", "xx", "--user", "--surface", "tool:x_b"])).exitCode).toBe(0);
    expect((await a.gjc(["plugin", "install", y, "--user"])).exitCode).toBe(0);

    const frozen = await a.gjc(["plugin", "sync", "--user", "--frozen", "--json"]);
    expect({ exit: frozen.exitCode, code: errorOf(frozen).code }).toEqual({ exit: 1, code: "lock_unsettled" });
    const r = await a.gjc(["plugin", "sync", "--user", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(
      r.json().items.map((i: { name: string; action: string; from?: string }) => [i.name, i.action, i.from ?? null]),
    ).toEqual([
      ["xx", "repair", "cache"],
      ["yy", "extra", null],
    ]);
    // Why, as {code, message} (no prose-only fields): the drifted file, by the code verify gives drift.
    expect(r.json().items.map((i: { reasons: unknown[] }) => i.reasons)).toEqual([
      [{ code: "runtime_mismatch", message: expect.stringContaining("tools/x_a.ts") }],
      [],
    ]);
    const xNow = registry(a.user).plugins.find((p) => p.name === "xx")!;
    expect(fileHashes(xNow.pluginRoot)).toEqual(original);
    expect((xNow as unknown as { disabledSurfaceIds: string[] }).disabledSurfaceIds).toEqual([]);
    expect(registry(a.user).plugins.map((p) => p.name)).toEqual(["xx", "yy"]);
    // A choice changed since the lock: the lock field that differs is the reason.
    expect((await a.gjc(["plugin", "disable", "xx", "--user"])).exitCode).toBe(0);
    const choices = await a.gjc(["plugin", "sync", "--user", "--dry-run", "--json"]);
    expect(choices.json().items[0]).toMatchObject({
      name: "xx",
      action: "choices",
      reasons: [{ code: "differs_from_lock", message: "enabled is not the lock's" }],
    });
    expect((await a.gjc(["plugin", "sync", "--user", "--dry-run"])).stdout).toContain(
      "xx 1.0.0 [gjc]: enabled is not the lock's",
    );
    const pruned = await a.gjc(["plugin", "sync", "--user", "--prune", "--frozen", "--json"]);
    expect(pruned.json().items.map((i: { action: string }) => i.action)).toEqual(["choices", "remove"]);
    expect(registry(a.user).plugins.map((p) => p.name)).toEqual(["xx"]);
    expect((await a.gjc(["plugin", "lock", "--user", "--check"])).exitCode).toBe(0);
    expect((await a.gjc(["plugin", "doctor", "--json"])).json().findings).toEqual([]);
  });

  for (const [step, state] of [
    ["sync:staging", "old"],
    ["sync:placed", "old"],
    ["sync:committed", "new"],
    ["sync:gjc-done", "new"],
  ] as const) {
    test(`kill -9 at ${step} leaves the ${state} set whole; the next sync finishes it`, async () => {
      const a = world();
      const srcs = ["p1", "p2", "p3"].map((n) => writeBundle(join(a.root, "src", n), n));
      for (const s of srcs) expect((await a.gjc(["plugin", "install", s, "--user"])).exitCode).toBe(0);
      expect((await a.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
      const want = installedFiles(a.user);
      for (const n of ["p1", "p2", "p3"]) expect((await a.gjc(["plugin", "uninstall", n, "--user"])).exitCode).toBe(0);
      const crash = await a.gjc(["plugin", "sync", "--user"], { env: { GJC_TEST_CRASH_AT: step } });
      expect(crash.exitCode).toBe(137);
      const names = registry(a.user).plugins.map((p) => p.name);
      expect(names).toEqual(state === "old" ? [] : ["p1", "p2", "p3"]);
      expect((await a.gjc(["plugin", "verify"])).exitCode).toBe(0);
      const next = await a.gjc(["plugin", "sync", "--user", "--frozen"]);
      expect(next.exitCode).toBe(0);
      expect(installedFiles(a.user)).toEqual(want);
      // A no-op sync takes no lock, so the dead process's lock may still be there: only that.
      const findings = (await a.gjc(["plugin", "doctor", "--json"])).json().findings;
      expect(findings.filter((f: { kind: string }) => f.kind !== "stale_lock")).toEqual([]);
      expect((await a.gjc(["plugin", "doctor", "--fix"])).exitCode).toBe(0);
      expect((await a.gjc(["plugin", "doctor", "--json"])).json().findings).toEqual([]);
    });
  }
});
