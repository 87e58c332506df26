/**
 * kill -9 at every step of install, update and uninstall (GJC_TEST_CRASH_AT, a test-only hook
 * that makes the process SIGKILL itself there). After each crash the scope is in the old or the
 * new state, never mixed; the next command removes the debris; doctor then finds nothing and
 * verify passes.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { crashPointsOf, type CrashPointOf } from "../../src/store/crash-points.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let w: World;
afterEach(() => w?.cleanup());

const versions = (root: string): Record<string, string> => {
  try {
    const reg = JSON.parse(readFileSync(join(root, "registry.json"), "utf8"));
    return Object.fromEntries(reg.plugins.map((p: { name: string; version: string }) => [p.name, p.version]));
  } catch {
    return {};
  }
};

/** What a consistent scope looks like: the registry, its last good copy, and exactly the registered content dirs. */
function expectClean(root: string) {
  const reg = JSON.parse(readFileSync(join(root, "registry.json"), "utf8"));
  const expected = [
    "registry.index.json",
    "registry.json",
    "registry.last-good.json",
    ...reg.plugins.map((p: { dir: string }) => p.dir),
  ].sort();
  expect(readdirSync(root).sort()).toEqual(expected);
}

async function crash(args: string[], step: string) {
  const r = await w.gjc(args, { env: { GJC_TEST_CRASH_AT: step } });
  expect({ step, exit: r.exitCode, stdout: r.stdout }).toEqual({ step, exit: 137, stdout: "" });
}

async function recoverAndCheck(other: string) {
  // verify reads only; the committed state is whole even before any cleanup.
  expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
  // The next mutating command takes the dead process's lock over and sweeps its debris.
  const next = await w.gjc(["plugin", "install", other, "--user"]);
  expect(next.exitCode).toBe(0);
  const doctor = await w.gjc(["plugin", "doctor", "--json"]);
  expect(doctor.json().findings).toEqual([]);
  expect(doctor.exitCode).toBe(0);
  expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
  expectClean(w.user);
}

// Every crash point of a GJC install, from the one table of them; the state a --force update killed there leaves.
const UPDATE_STEPS = {
  "install:compiled": "old",
  "install:locked": "old",
  "install:staging": "old",
  "install:staged": "old",
  "install:placed": "old",
  "install:committed": "new",
  "install:recorded": "new",
  "install:retired": "new",
} as const satisfies Record<CrashPointOf<"gjc-install">, "old" | "new">;

describe("crash safety (kill -9)", () => {
  for (const step of crashPointsOf("gjc-install")) {
    const expectState = UPDATE_STEPS[step];
    test(`--force update killed at ${step} leaves the ${expectState} state`, async () => {
      w = makeWorld();
      const src = writeBundle(join(w.root, "src"), "crashy", { tools: ["c_a", "c_b", "c_c", "c_d"] });
      const other = writeBundle(join(w.root, "other"), "bystander");
      expect((await w.gjc(["plugin", "install", src, "--user"])).exitCode).toBe(0);
      writeBundle(src, "crashy", {
        version: "2.0.0",
        tools: ["c_a", "c_b", "c_c", "c_d"],
        body: "export default () => 2;",
      });
      await crash(["plugin", "install", src, "--user", "--force"], step);
      expect(versions(w.user).crashy).toBe(expectState === "old" ? "1.0.0" : "2.0.0");
      await recoverAndCheck(other);
      expect(versions(w.user)).toEqual({ crashy: expectState === "old" ? "1.0.0" : "2.0.0", bystander: "1.0.0" });
    });
  }

  for (const step of ["install:staging", "install:placed", "install:committed"]) {
    test(`a first install killed at ${step} leaves nothing or the whole bundle`, async () => {
      w = makeWorld();
      const src = writeBundle(join(w.root, "src"), "fresh", { tools: ["f_a", "f_b", "f_c"] });
      const other = writeBundle(join(w.root, "other"), "bystander");
      await crash(["plugin", "install", src, "--user"], step);
      expect(versions(w.user)).toEqual(step === "install:committed" ? { fresh: "1.0.0" } : {});
      // doctor sees the debris and the dead lock before anything cleans them.
      const before = await w.gjc(["plugin", "doctor", "--json"]);
      expect(before.json().findings.map((f: { kind: string }) => f.kind)).toContain("stale_lock");
      await recoverAndCheck(other);
    });
  }

  for (const step of ["uninstall:committed", "uninstall:removing"]) {
    test(`uninstall killed at ${step} leaves the bundle gone and the debris swept`, async () => {
      w = makeWorld();
      const src = writeBundle(join(w.root, "src"), "leaving", { tools: ["l_a", "l_b", "l_c"] });
      const other = writeBundle(join(w.root, "other"), "bystander");
      expect((await w.gjc(["plugin", "install", src, "--user"])).exitCode).toBe(0);
      await crash(["plugin", "uninstall", "leaving", "--user"], step);
      expect(versions(w.user)).toEqual({});
      await recoverAndCheck(other);
      expect(versions(w.user)).toEqual({ bystander: "1.0.0" });
    });
  }

  test("doctor --fix alone also restores a consistent scope after a crash", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "crashy", { tools: ["c_a", "c_b"] });
    await crash(["plugin", "install", src, "--user"], "install:placed");
    const fix = await w.gjc(["plugin", "doctor", "--fix", "--json"]);
    expect(fix.exitCode).toBe(0);
    expect(fix.json().findings.every((f: { fixed?: boolean }) => f.fixed)).toBe(true);
    expect((await w.gjc(["plugin", "doctor", "--json"])).json().findings).toEqual([]);
    expect(readdirSync(w.user).sort()).toEqual([]);
  });
});
