/**
 * gjc plugin lock: the lock of a scope written from what is installed (real git and path
 * sources), its stable bytes, the documented integrity, and --check (exit 1 on each kind of
 * difference, nothing changed).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { snapshotTree } from "../helpers/tmp.ts";
import { writeBundle } from "./gjc-install-fixture.ts";
import { errorOf, integrityOfDir, makeSetWorld, registry, type SetWorld } from "./sets-fixture.ts";

let w: SetWorld;
afterEach(() => w?.cleanup());

describe("gjc plugin lock", () => {
  test("writes a sorted, stable lock with source, ref, pin, integrity and choices; a path inside the project is relative", async () => {
    w = makeSetWorld();
    const repo = w.repo("zeta", { tools: ["z_one", "z_two"] });
    const local = writeBundle(join(w.project, "bundles", "alpha"), "alpha");
    expect((await w.gjc(["plugin", "install", `${repo.url}#main`, "--project"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "install", local, "--project"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "disable", "zeta", "--project", "--surface", "tool:z_two"])).exitCode).toBe(0);

    const r = await w.gjc(["plugin", "lock", "--project", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json()).toMatchObject({ schema: "gjc/lock@1", ok: true, changed: true, path: w.lock });
    const text = readFileSync(w.lock, "utf8");
    const lock = JSON.parse(text);
    const reg = registry(w.projectScope).plugins;
    const dirOf = (n: string) => reg.find((p) => p.name === n)!.pluginRoot;
    expect(lock).toEqual({
      lockfileVersion: 1,
      scope: "project",
      bundles: [
        {
          name: "alpha",
          family: "gjc",
          version: "1.0.0",
          source: { kind: "path", path: "./bundles/alpha" },
          pin: {},
          integrity: integrityOfDir(dirOf("alpha")),
          files: 2,
          enabled: true,
          disabledSurfaces: [],
        },
        {
          name: "zeta",
          family: "gjc",
          version: "1.0.0",
          source: { kind: "git", url: repo.url, ref: "main" },
          pin: { commit: repo.head() },
          integrity: integrityOfDir(dirOf("zeta")),
          files: 3,
          enabled: true,
          disabledSurfaces: ["tool:z_two"],
        },
      ],
    });
    expect(text).toBe(`${JSON.stringify(lock, null, 2)}\n`);
    expect(text).not.toContain(w.project); // no absolute path of this machine for sources inside the project

    // Same state: same bytes, nothing rewritten.
    const again = await w.gjc(["plugin", "lock", "--project", "--json"]);
    expect(again.json().changed).toBe(false);
    expect(readFileSync(w.lock, "utf8")).toBe(text);
    expect((await w.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);

    // A newer tool's top-level keys survive a rewrite (after the known ones).
    writeFileSync(
      w.lock,
      text.replace('"lockfileVersion": 1,', '"lockfileVersion": 1,\n  "xTeam": { "owner": "infra" },'),
    );
    expect((await w.gjc(["plugin", "uninstall", "alpha", "--project"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
    const rewritten = JSON.parse(readFileSync(w.lock, "utf8"));
    expect(Object.keys(rewritten)).toEqual(["lockfileVersion", "scope", "bundles", "xTeam"]);
    expect(rewritten.xTeam).toEqual({ owner: "infra" });
    expect(rewritten.bundles.map((b: { name: string }) => b.name)).toEqual(["zeta"]);
  });

  test("--check exits 1 and names each difference (drift on disk, changed choice, missing, extra) and changes nothing", async () => {
    w = makeSetWorld();
    const a = writeBundle(join(w.root, "src", "a"), "aa");
    const b = writeBundle(join(w.root, "src", "b"), "bb");
    const c = writeBundle(join(w.root, "src", "c"), "cc");
    for (const src of [a, b]) expect((await w.gjc(["plugin", "install", src, "--user"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
    const userLock = join(w.home, ".gjc", "agent", "plugins.lock.json");
    expect(JSON.parse(readFileSync(userLock, "utf8")).scope).toBe("user");

    const aDir = registry(w.user).plugins.find((p) => p.name === "aa")!.pluginRoot;
    appendFileSync(join(aDir, "tools", "aa_tool.ts"), "// edited\n");
    expect((await w.gjc(["plugin", "disable", "bb", "--user"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "install", c, "--user"])).exitCode).toBe(0);
    const before = { tree: snapshotTree(w.user), lock: readFileSync(userLock, "utf8") };
    const r = await w.gjc(["plugin", "lock", "--user", "--check", "--json"]);
    expect(r.exitCode).toBe(1);
    expect(r.json().differences).toEqual([
      { name: "aa", family: "gjc", kind: "drifted", files: [{ kind: "changed", path: "tools/aa_tool.ts" }] },
      { name: "bb", family: "gjc", kind: "changed", fields: ["enabled"] },
      { name: "cc", family: "gjc", kind: "extra" },
    ]);
    const human = await w.gjc(["plugin", "lock", "--user", "--check"]);
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain("drifted  aa [gjc]: tools/aa_tool.ts (changed)");
    expect(snapshotTree(w.user)).toEqual(before.tree);
    expect((await w.gjc(["plugin", "uninstall", "bb", "--user"])).exitCode).toBe(0);
    const missing = await w.gjc(["plugin", "lock", "--user", "--check", "--json"]);
    expect(missing.json().differences).toContainEqual({ name: "bb", family: "gjc", kind: "missing" });
    expect(before.lock).toBe(readFileSync(userLock, "utf8"));
  });

  test("refusals: no scope (2), no lock (1, lock_missing), a damaged or foreign lock (1, invalid_lock)", async () => {
    w = makeSetWorld();
    const none = await w.gjc(["plugin", "lock", "--json"]);
    expect(none.exitCode).toBe(2);
    const noLock = await w.gjc(["plugin", "lock", "--project", "--check", "--json"]);
    expect({ exit: noLock.exitCode, code: errorOf(noLock).code }).toEqual({ exit: 1, code: "lock_missing" });
    mkdirSync(join(w.project, ".gjc"), { recursive: true });
    writeFileSync(w.lock, "<<<<<<< HEAD\n");
    const bad = await w.gjc(["plugin", "lock", "--project", "--check", "--json"]);
    expect({ exit: bad.exitCode, code: errorOf(bad).code }).toEqual({ exit: 1, code: "invalid_lock" });
    writeFileSync(w.lock, JSON.stringify({ lockfileVersion: 1, scope: "user", bundles: [] }));
    const foreign = await w.gjc(["plugin", "lock", "--project", "--check", "--json"]);
    expect(errorOf(foreign).message).toContain("not the project scope");
    writeFileSync(
      w.lock,
      JSON.stringify({
        lockfileVersion: 1,
        scope: "project",
        bundles: [
          {
            name: "x",
            family: "gjc",
            version: "1",
            source: { kind: "path", path: "." },
            pin: {},
            integrity: "md5:00",
            files: 1,
            enabled: true,
            disabledSurfaces: [],
          },
        ],
      }),
    );
    const badDigest = await w.gjc(["plugin", "lock", "--project", "--check", "--json"]);
    // The bad field is named (the lock's generated check, src/sets/disk-schemas.generated.ts).
    expect(errorOf(badDigest)).toMatchObject({
      code: "invalid_lock",
      message: expect.stringContaining('bundles[0].integrity "md5:00" is not valid'),
    });
    expect(errorOf(badDigest).message).toContain("(at /bundles/0/integrity)");
  });
});
