/**
 * kill -9 at every commit step of a C2 update, uninstall and policy apply (GJC_TEST_CRASH_AT,
 * the test-only crash hook): the data dir is left as before or as after, never mixed, and the
 * next command finishes the job with no leftovers.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { crashPointsOf } from "../../src/store/crash-points.ts";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { writeTree } from "../helpers/tmp.ts";
import { runtimeBundle } from "../unit/c2store/_bundles.ts";

const box = sandboxPerTest("gjc-c2crash-");

function setup() {
  const s = box();
  const run = (args: string[], extra: Record<string, string> = {}) => s.gjc(args, { env: extra, cwd: s.root });
  const dir = s.write("demo", runtimeBundle("demo", "1.0.0"));
  return { data: s.c2, run, dir, root: s.root };
}

const leftovers = (data: string) =>
  readdirSync(join(data, "plugins")).filter((n) => n.startsWith(".") && n !== ".data");

for (const step of crashPointsOf("c2-install")) {
  test(`an update killed at ${step} leaves 1.0.0 or 2.0.0, whole`, async () => {
    const s = setup();
    const first = (await s.run(["plugin", "install", s.dir, "--json"])).json();
    writeTree(s.dir, runtimeBundle("demo", "2.0.0", { extra: { "new.txt": "added in 2" } }));
    const killed = await s.run(["plugin", "install", s.dir, "--force"], { GJC_TEST_CRASH_AT: step });
    // 137 = killed by SIGKILL at that very step (not a refusal or an error exit).
    expect({ step, exit: killed.exitCode, stdout: killed.stdout }).toEqual({ step, exit: 137, stdout: "" });
    // The next mutating command recovers first; verify then checks every byte against the record.
    const verify = await s.run(["plugin", "verify", "demo", "--json"]);
    expect(verify.exitCode).toBe(0);
    const record = JSON.parse(readFileSync(join(s.data, "plugins", first.c2.id, "installed-plugin.json"), "utf8"));
    const expected = step === "c2install:committed" ? "2.0.0" : "1.0.0";
    expect(record.version).toBe(expected);
    expect(existsSync(join(s.data, "plugins", first.c2.id, "bundle", "new.txt"))).toBe(expected === "2.0.0");
    expect(leftovers(s.data)).toEqual([]);
  });
}

for (const step of ["c2install:staged", "c2install:committed"]) {
  test(`a first install killed at ${step} leaves nothing or the whole bundle`, async () => {
    const s = setup();
    const killed = await s.run(["plugin", "install", s.dir], { GJC_TEST_CRASH_AT: step });
    expect({ step, exit: killed.exitCode, stdout: killed.stdout }).toEqual({ step, exit: 137, stdout: "" });
    const listed = (await s.run(["plugin", "list", "--json"]))
      .json()
      .bundles.map((b: { name: string; version: string }) => [b.name, b.version]);
    expect(listed).toEqual(step === "c2install:committed" ? [["demo", "1.0.0"]] : []);
    if (step === "c2install:committed") expect((await s.run(["plugin", "verify", "demo"])).exitCode).toBe(0);
    // The next mutating command sweeps the dead install's staging; installing again is then a no-op or the install.
    const again = await s.run(["plugin", "install", s.dir, "--json"]);
    expect([again.exitCode, again.json().status]).toEqual([
      0,
      step === "c2install:committed" ? "unchanged" : "installed",
    ]);
    expect(leftovers(s.data)).toEqual([]);
    expect(readdirSync(s.data).filter((n) => n.includes("lock"))).toEqual([]);
  });
}

test("an uninstall killed after its policy was forgotten, before the bundle moved, leaves it installed; uninstalling again finishes", async () => {
  const s = setup();
  await s.run(["plugin", "install", s.dir]);
  expect(
    (await s.run(["plugin", "uninstall", "demo"], { GJC_TEST_CRASH_AT: "c2uninstall:policy-forgotten" })).exitCode,
  ).toBe(137);
  expect((await s.run(["plugin", "list", "--json"])).json().bundles.map((b: { name: string }) => b.name)).toEqual([
    "demo",
  ]);
  expect((await s.run(["plugin", "verify", "demo"])).exitCode).toBe(0);
  expect((await s.run(["plugin", "uninstall", "demo"])).exitCode).toBe(0);
  expect((await s.run(["plugin", "list", "--json"])).json().bundles).toEqual([]);
  expect(leftovers(s.data)).toEqual([]);
});

test("an uninstall killed after the bundle was moved away is finished by the next command", async () => {
  const s = setup();
  const first = (await s.run(["plugin", "install", s.dir, "--json"])).json();
  expect((await s.run(["plugin", "uninstall", "demo"], { GJC_TEST_CRASH_AT: "c2uninstall:trashed" })).exitCode).toBe(
    137,
  );
  expect((await s.run(["plugin", "list", "--json"])).json().bundles).toEqual([]);
  await s.run(["plugin", "install", s.dir]);
  expect(leftovers(s.data)).toEqual([]);
  expect(
    (await s.run(["plugin", "list", "--json"])).json().bundles.map((b: { c2: { id: string } }) => b.c2.id),
  ).toEqual([first.c2.id]);
});

test("a policy apply killed after the write keeps the previous last-good and a valid primary", async () => {
  const s = setup();
  await s.run(["plugin", "install", s.dir]);
  await s.run(["plugin", "trust", "demo"]);
  const token = (await s.run(["plugin", "policy", "plan", "demo", "--state", "disabled", "--json"])).json().token;
  expect((await s.run(["plugin", "policy", "apply", token], { GJC_TEST_CRASH_AT: "c2policy:written" })).exitCode).toBe(
    137,
  );
  const cat = (await s.run(["plugin", "policy", "catalog", "--json"])).json();
  expect(cat.recovery.kind).toBe("normal");
  expect(cat.configRevision).toBe(1);
  expect(existsSync(join(s.data, "plugin-config.last-good.json"))).toBe(false);
  expect((await s.run(["plugin", "policy", "apply", token])).exitCode).toBe(3); // used up
  expect(readdirSync(s.data).filter((n) => n.includes("lock") || n.includes(".tmp-"))).toEqual([]);
});
