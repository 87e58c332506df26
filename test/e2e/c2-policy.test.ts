/**
 * The revision-bound policy plane through the real CLI: plan in one process, apply in another;
 * stale and reused tokens; rollback; recovery from a corrupt primary; project aliases; and
 * several processes installing and changing policy at once.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { runtimeBundle, skillsBundle } from "../unit/c2store/_bundles.ts";

const box = sandboxPerTest("gjc-c2pol-");

/** The CLI in a fresh sandbox, run from its root (no project scope). */
function c2Cli() {
  const s = box();
  return {
    root: s.root,
    data: s.c2,
    run: (...args: string[]) => s.gjc(args, { cwd: s.root, env: { GJC_LOCK_TIMEOUT_MS: "60000" } }),
    bundle: s.write,
  };
}

const errorCode = (r: { stderr: string }) =>
  JSON.parse(r.stderr.split("\n").find((l) => l.startsWith('{"error"'))!).error.code;

async function installedTrusted(c: ReturnType<typeof c2Cli>, name = "demo") {
  const r = await c.run("plugin", "install", c.bundle(name, runtimeBundle(name)), "--json");
  expect(r.exitCode).toBe(0);
  expect((await c.run("plugin", "trust", name)).exitCode).toBe(0);
  return r.json().c2.id as string;
}

describe("gjc plugin policy", () => {
  test("catalog → plan → apply across processes; the token is single-use", async () => {
    const c = c2Cli();
    const id = await installedTrusted(c);
    const cat = await c.run("plugin", "policy", "catalog", "--json");
    expect(cat.json()).toMatchObject({
      schema: "gjc/policy-catalog@1",
      configRevision: 0,
      recovery: { kind: "normal" },
      plugins: [{ id: `bundle:${id}`, state: "inherit" }],
    });

    const plan = await c.run("plugin", "policy", "plan", "demo", "--state", "disabled");
    expect(plan.exitCode).toBe(0);
    expect(plan.stdout).toContain("state: enabled → disabled");
    expect(plan.stdout).toContain("stops: demo runtime");
    const token = /policy apply ([0-9a-f]{32})/.exec(plan.stdout)![1];

    const applied = await c.run("plugin", "policy", "apply", token, "--json");
    expect(applied.exitCode).toBe(0);
    expect(applied.json()).toMatchObject({
      schema: "gjc/policy-apply@1",
      configRevision: 1,
      effective: { state: "disabled" },
    });
    expect((await c.run("plugin", "policy", "catalog", "--json")).json().plugins[0]).toMatchObject({
      state: "disabled",
      effectiveState: { status: "disabled" },
    });

    const before = snapshotTree(c.data);
    const reused = await c.run("plugin", "policy", "apply", token, "--json");
    expect(reused.exitCode).toBe(3);
    expect(errorCode(reused)).toBe("plan_not_found");
    expect(snapshotTree(c.data)).toEqual(before);
  });

  test("a plan made before another change is stale; enabling an untrusted runtime rolls back", async () => {
    const c = c2Cli();
    await installedTrusted(c);
    const a = (await c.run("plugin", "policy", "plan", "demo", "--state", "disabled", "--json")).json().token;
    const b = (
      await c.run("plugin", "policy", "plan", "demo", "--state", "enabled", "--config", '{"level":2}', "--json")
    ).json().token;
    expect((await c.run("plugin", "policy", "apply", a)).exitCode).toBe(0);
    const stale = await c.run("plugin", "policy", "apply", b, "--json");
    expect(stale.exitCode).toBe(3);
    expect(errorCode(stale)).toBe("stale_plan");

    await c.run("plugin", "untrust", "demo");
    const primary = readFileSync(join(c.data, "plugin-config.json"), "utf8");
    const lastGood = readFileSync(join(c.data, "plugin-config.last-good.json"), "utf8");
    const t = (await c.run("plugin", "policy", "plan", "demo", "--state", "enabled", "--json")).json().token;
    const rolled = await c.run("plugin", "policy", "apply", t, "--json");
    expect(rolled.exitCode).toBe(3);
    expect(errorCode(rolled)).toBe("change_not_settled");
    expect(readFileSync(join(c.data, "plugin-config.json"), "utf8")).toBe(primary);
    expect(readFileSync(join(c.data, "plugin-config.last-good.json"), "utf8")).toBe(lastGood);

    const bad = await c.run("plugin", "policy", "plan", "demo", "--state", "enabled", "--config", "{nope", "--json");
    expect(bad.exitCode).toBe(2);
    const badState = await c.run("plugin", "policy", "plan", "demo", "--state", "on");
    expect(badState.exitCode).toBe(2);
  });

  test("project spellings with `.`, `..` and a symlink share one policy", async () => {
    const c = c2Cli();
    await installedTrusted(c);
    const real = join(c.root, "work", "proj");
    mkdirSync(join(real, "sub"), { recursive: true });
    symlinkSync(real, join(c.root, "alias"));
    const t = (
      await c.run("plugin", "policy", "plan", "demo", "--state", "disabled", "--project", "alias/sub/..", "--json")
    ).json();
    expect(t.scope).toEqual({ kind: "project", projectPath: real });
    expect((await c.run("plugin", "policy", "apply", t.token)).exitCode).toBe(0);
    for (const spelling of [real, `${real}/.`, "work/proj/sub/..", "alias"]) {
      const cat = (await c.run("plugin", "policy", "catalog", "--project", spelling, "--json")).json();
      expect(cat.plugins[0]).toMatchObject({ state: "disabled", effective: { state: "disabled", source: "project" } });
    }
    expect((await c.run("plugin", "policy", "catalog", "--json")).json().plugins[0].effective.state).toBe("enabled");
    expect((await c.run("plugin", "policy", "reset", "demo", "--project", `${real}/.`, "--json")).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(c.data, "plugin-config.json"), "utf8")).projects).toEqual({});
  });

  test("a corrupt primary: last good copy in force, changes refused, reset recovers; safe mode without a copy", async () => {
    const c = c2Cli();
    await installedTrusted(c);
    const t = (await c.run("plugin", "policy", "plan", "demo", "--state", "disabled", "--json")).json().token;
    await c.run("plugin", "policy", "apply", t);
    writeFileSync(join(c.data, "plugin-config.json"), "{ corrupt");
    const cat = (await c.run("plugin", "policy", "catalog", "--json")).json();
    expect(cat.recovery.kind).toBe("restored-last-good");
    expect(cat.plugins[0].effective.state).toBe("disabled");
    const human = await c.run("plugin", "policy", "catalog");
    expect(human.stdout).toContain("Recovery: restored last good");
    const before = snapshotTree(c.data);
    const refused = await c.run("plugin", "policy", "plan", "demo", "--state", "enabled", "--json");
    expect(refused.exitCode).toBe(3);
    expect(errorCode(refused)).toBe("policy_recovery");
    expect(snapshotTree(c.data)).toEqual(before);
    const reset = (await c.run("plugin", "policy", "reset", "demo", "--json")).json();
    expect(reset.recoveryBefore.kind).toBe("restored-last-good");
    expect(readFileSync(reset.evidence, "utf8")).toBe("{ corrupt");
    expect((await c.run("plugin", "policy", "catalog", "--json")).json().recovery.kind).toBe("normal");

    writeFileSync(join(c.data, "plugin-config.json"), "[]");
    writeFileSync(join(c.data, "plugin-config.last-good.json"), "also bad");
    const safe = (await c.run("plugin", "policy", "catalog", "--json")).json();
    expect(safe.recovery.kind).toBe("safe-mode");
    expect(safe.plugins[0].effectiveState).toEqual({ status: "disabled", reason: "safe-mode" });
    expect((await c.run("plugin", "policy", "reset", "demo")).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(c.data, "plugin-config.json"), "utf8")).revision).toBe(0);
  });
});

describe("several processes at once", () => {
  test("concurrent installs and policy changes serialize on the C2 lock and all land", async () => {
    const c = c2Cli();
    const names = ["p1", "p2", "p3", "p4"];
    for (const n of names) c.bundle(n, runtimeBundle(n));
    c.bundle("s1", skillsBundle("s1"));
    await installedTrusted(c, "base");
    // Plans for different plugins made first would go stale; make each apply against a fresh plan.
    const installs = [...names, "s1"].map((n) => c.run("plugin", "install", join(c.root, n), "--json"));
    const policy = (async () => {
      const results: number[] = [];
      for (const state of ["disabled", "enabled", "disabled"]) {
        for (let attempt = 0; attempt < 20; attempt++) {
          const plan = (await c.run("plugin", "policy", "plan", "base", "--state", state, "--json")).json();
          const r = await c.run("plugin", "policy", "apply", plan.token, "--json");
          if (r.exitCode === 0) {
            results.push(0);
            break;
          }
          expect(errorCode(r)).toBe("stale_plan"); // an install landed in between: plan again
        }
      }
      return results;
    })();
    const done = await Promise.all(installs);
    expect(done.map((r) => r.exitCode)).toEqual([0, 0, 0, 0, 0]);
    expect(await policy).toEqual([0, 0, 0]);
    const list = (await c.run("plugin", "list", "--json")).json();
    expect(list.bundles.map((b: { name: string }) => b.name).sort()).toEqual(["base", "p1", "p2", "p3", "p4", "s1"]);
    const doc = JSON.parse(readFileSync(join(c.data, "plugin-config.json"), "utf8"));
    expect(doc.revision).toBe(3);
    expect(Object.values(doc.user)).toEqual([{ state: "disabled" }]);
    expect(readdirSync(join(c.data, "plugins")).filter((n) => n.startsWith(".") && n !== ".data")).toEqual([]);
    expect(readdirSync(c.data).filter((n) => n.includes("lock"))).toEqual([]);
  });
});
