/**
 * History and rollback: generations recorded by the mutating verbs (last 10 kept); rollback of
 * one bundle restores files and choices from the cache with the network absent (unshare -n),
 * survives kill -9, and never raises trust (C2).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeTree } from "../helpers/tmp.ts";
import { runtimeBundle } from "../unit/c2store/_bundles.ts";
import { writeBundle } from "./gjc-install-fixture.ts";
import { errorOf, fileHashes, makeSetWorld, netlessCli, registry, type SetWorld } from "./sets-fixture.ts";
import type { CrashPointOf } from "../../src/store/crash-points.ts";

let w: SetWorld;
afterEach(() => w?.cleanup());

const bundleOf = (name: string) => registry(w.projectScope).plugins.find((p) => p.name === name)!;

async function twoVersions() {
  w = makeSetWorld();
  const src = join(w.root, "src", "p");
  writeBundle(src, "p", { tools: ["p_a", "p_b"] });
  expect((await w.gjc(["plugin", "install", src, "--project"])).exitCode).toBe(0);
  expect((await w.gjc(["plugin", "disable", "p", "--project", "--surface", "tool:p_b"])).exitCode).toBe(0);
  const v1 = fileHashes(bundleOf("p").pluginRoot);
  writeBundle(src, "p", { version: "2.0.0", tools: ["p_a", "p_b"], body: "export default () => 2;" });
  expect((await w.gjc(["plugin", "upgrade", "p", "--project"])).exitCode).toBe(0);
  expect((await w.gjc(["plugin", "enable", "p", "--project", "--surface", "tool:p_b"])).exitCode).toBe(0);
  return { src, v1 };
}

describe("history and rollback", () => {
  test("history lists generations with the command that made them; rollback restores files and choices offline", async () => {
    const { v1 } = await twoVersions();
    const h = await w.gjc(["plugin", "history", "p", "--project", "--json"]);
    const gens = h.json().generations;
    expect(gens.map((g: { generation: number; command: string }) => `${g.generation}:${g.command}`)).toEqual([
      "4:gjc plugin enable",
      "3:gjc plugin upgrade",
      "2:gjc plugin disable",
      "1:gjc plugin install",
    ]);
    expect(gens[1].bundles[0]).toMatchObject({ name: "p", version: "2.0.0", disabledSurfaces: ["tool:p_b"] });

    // The newest generation where p differs is 3 (2.0.0, p_b off): only the choice changes.
    let r = netlessCli(w, ["plugin", "rollback", "p", "--project", "--json"]);
    expect({ status: r.status, err: r.stderr }).toMatchObject({ status: 0 });
    expect(JSON.parse(r.stdout)).toMatchObject({ generation: 3, status: "restored", to: { version: "2.0.0" } });
    expect((bundleOf("p") as unknown as { disabledSurfaceIds: string[] }).disabledSurfaceIds).toEqual(["tool:p_b"]);

    r = netlessCli(w, ["plugin", "rollback", "p", "--project", "--to", "2", "--json"]);
    expect({ status: r.status, err: r.stderr }).toMatchObject({ status: 0 });
    expect(JSON.parse(r.stdout)).toMatchObject({
      generation: 2,
      status: "restored",
      from: { version: "2.0.0" },
      to: { version: "1.0.0" },
    });
    expect(fileHashes(bundleOf("p").pluginRoot)).toEqual(v1);
    expect(bundleOf("p").version).toBe("1.0.0");
    expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
    const latest = (await w.gjc(["plugin", "history", "--project", "--json"])).json().generations[0];
    expect(latest.command).toBe("gjc plugin rollback p --to 2");

    const missing = await w.gjc(["plugin", "rollback", "p", "--project", "--to", "99", "--json"]);
    expect({ exit: missing.exitCode, code: errorOf(missing).code }).toEqual({ exit: 1, code: "no_generation" });
  });

  test("rollback from an emptied cache is offline_miss (exit 4) and changes nothing; only the last 10 generations are kept", async () => {
    await twoVersions();
    rmSync(w.cache, { recursive: true, force: true });
    const before = fileHashes(bundleOf("p").pluginRoot);
    const r = netlessCli(w, ["plugin", "rollback", "p", "--project", "--to", "1", "--json"]);
    expect(r.status).toBe(4);
    expect(JSON.parse(r.stdout).error.code).toBe("offline_miss");
    expect(fileHashes(bundleOf("p").pluginRoot)).toEqual(before);
    for (let i = 0; i < 6; i++) {
      expect((await w.gjc(["plugin", "disable", "p", "--project"])).exitCode).toBe(0);
      expect((await w.gjc(["plugin", "enable", "p", "--project"])).exitCode).toBe(0);
    }
    const gens = (await w.gjc(["plugin", "history", "--project", "--json"])).json().generations;
    expect(gens).toHaveLength(10);
    expect(gens[0].generation).toBe(16);
  });

  test("rollback goes to the newest generation it can restore: content gone from the cache is passed over, and nothing to restore is `unchanged`", async () => {
    w = makeSetWorld();
    const src = join(w.root, "src", "p");
    writeBundle(src, "p", { tools: ["p_a"] });
    expect((await w.gjc(["plugin", "install", src, "--project"])).exitCode).toBe(0); // gen 1: 1.0.0
    writeBundle(src, "p", { version: "2.0.0", tools: ["p_a"], body: "export default () => 2;" });
    expect((await w.gjc(["plugin", "upgrade", "p", "--project"])).exitCode).toBe(0); // gen 2: 2.0.0
    rmSync(w.cache, { recursive: true, force: true });
    const before = fileHashes(bundleOf("p").pluginRoot);
    // 1.0.0 is no longer in the cache: the only older generation cannot be restored, so nothing changes.
    const r = netlessCli(w, ["plugin", "rollback", "p", "--project", "--json"]);
    expect({ status: r.status, err: r.stderr }).toMatchObject({ status: 0 });
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: "unchanged",
      from: { version: "2.0.0" },
      to: { version: "2.0.0" },
    });
    expect(fileHashes(bundleOf("p").pluginRoot)).toEqual(before);
    const gens = (await w.gjc(["plugin", "history", "--project", "--json"])).json().generations;
    expect(gens.map((g: { command: string }) => g.command)).toEqual(["gjc plugin upgrade", "gjc plugin install"]);
    // Asked for by number, the same generation is refused as before.
    expect(netlessCli(w, ["plugin", "rollback", "p", "--project", "--to", "1", "--json"]).status).toBe(4);
  });

  // Every crash point of a rollback (the set change's points under its own step), from the one
  // table of them: the version a kill there leaves, before the next command finishes the change.
  const ROLLBACK_LEAVES = {
    "rollback:planned": "2.0.0",
    "rollback:journaled": "2.0.0",
    "rollback:staging": "2.0.0",
    "rollback:placed": "2.0.0",
    "rollback:committed": "1.0.0",
    "rollback:gjc-done": "1.0.0",
    "rollback:c2-done": "1.0.0",
  } as const satisfies Record<Extract<CrashPointOf<"set-change">, `rollback:${string}`>, string>;
  for (const [step, state] of Object.entries(ROLLBACK_LEAVES)) {
    test(`kill -9 at ${step} leaves ${state} whole`, async () => {
      const { v1 } = await twoVersions();
      const r = netlessCli(w, ["plugin", "rollback", "p", "--project", "--to", "2"], { GJC_TEST_CRASH_AT: step });
      expect(r.signal ?? r.status).toBe("SIGKILL");
      expect(bundleOf("p").version).toBe(state);
      expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
      const again = netlessCli(w, ["plugin", "rollback", "p", "--project", "--to", "2"]);
      expect({ status: again.status, err: again.stderr }).toMatchObject({ status: 0 });
      expect(fileHashes(bundleOf("p").pluginRoot)).toEqual(v1);
      expect((await w.gjc(["plugin", "doctor", "--fix"])).exitCode).toBe(0);
      expect((await w.gjc(["plugin", "doctor", "--json"])).json().findings).toEqual([]);
    });
  }

  test("C2: rollback never raises trust (trusted then, untrusted now: stays untrusted); a generation where it was untrusted untrusts it", async () => {
    w = makeSetWorld();
    const dir = join(w.root, "src", "demo");
    writeTree(dir, runtimeBundle("demo"));
    expect((await w.gjc(["plugin", "install", dir])).exitCode).toBe(0); // gen 1: v1, untrusted
    expect((await w.gjc(["plugin", "trust", "demo"])).exitCode).toBe(0); // gen 2: v1, trusted
    const v1Row = (await w.gjc(["plugin", "list", "--json"]))
      .json()
      .bundles.find((b: { family: string }) => b.family === "c2");
    const v1 = { ...v1Row, ...v1Row.c2 };
    const v1Files = fileHashes(join(w.home, ".codetwo", "plugins", v1.id, "bundle"));
    writeTree(dir, runtimeBundle("demo", "2.0.0"));
    expect((await w.gjc(["plugin", "install", dir, "--force"])).exitCode).toBe(0); // gen 3: v2, trusted (kept by the store)
    expect((await w.gjc(["plugin", "untrust", "demo"])).exitCode).toBe(0); // gen 4: v2, untrusted
    const c2Now = async () => {
      const row = (await w.gjc(["plugin", "list", "--json"]))
        .json()
        .bundles.find((b: { family: string }) => b.family === "c2");
      return { ...row, ...row.c2 };
    };

    const r = netlessCli(w, ["plugin", "rollback", "demo", "--to", "2", "--json"]);
    expect({ status: r.status, err: r.stderr }).toMatchObject({ status: 0 });
    expect(JSON.parse(r.stdout)).toMatchObject({
      family: "c2",
      generation: 2,
      status: "restored",
      trustNotRaised: true,
    });
    expect(await c2Now()).toMatchObject({ version: "1.0.0", trusted: false, id: v1.id });
    expect(fileHashes(join(w.home, ".codetwo", "plugins", v1.id, "bundle"))).toEqual(v1Files);

    expect((await w.gjc(["plugin", "trust", "demo"])).exitCode).toBe(0);
    const back = netlessCli(w, ["plugin", "rollback", "demo", "--to", "1", "--json"]);
    expect(back.status).toBe(0);
    expect(await c2Now()).toMatchObject({ version: "1.0.0", trusted: false });
    expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
  });

  test("C2: a generation that differs only by trust is not a rollback target; with nothing else to restore the answer is `unchanged`", async () => {
    w = makeSetWorld();
    const dir = join(w.root, "src", "demo");
    writeTree(dir, runtimeBundle("demo"));
    expect((await w.gjc(["plugin", "install", dir])).exitCode).toBe(0); // gen 1: untrusted
    expect((await w.gjc(["plugin", "trust", "demo"])).exitCode).toBe(0); // gen 2: trusted
    expect((await w.gjc(["plugin", "untrust", "demo"])).exitCode).toBe(0); // gen 3: untrusted
    const r = netlessCli(w, ["plugin", "rollback", "demo", "--json"]);
    expect({ status: r.status, err: r.stderr }).toMatchObject({ status: 0 });
    expect(JSON.parse(r.stdout)).toMatchObject({ family: "c2", status: "unchanged" });
    // Named explicitly, the trusted generation is unchanged too, and says trust was not raised.
    const two = netlessCli(w, ["plugin", "rollback", "demo", "--to", "2", "--json"]);
    expect(JSON.parse(two.stdout)).toMatchObject({ generation: 2, status: "unchanged", trustNotRaised: true });
    const gens = (await w.gjc(["plugin", "history", "--json"])).json().generations;
    expect(gens).toHaveLength(3);
  });
});
