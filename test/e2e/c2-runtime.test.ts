import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { projectHash } from "../../src/c2store/project-key.ts";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { liveGroupMembers, processAlive, writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { c2HomesPerTest, dirtyRepo, installBundle, type C2Home, unconfined } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();
const run = (h: C2Home, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { env: { ...h.env, ...env }, cwd: h.root });
const errorOf = (r: { stdout: string }) =>
  JSON.parse(r.stdout).error as { code: string; message: string; hint?: string };
/** The pid the fixture runtime wrote to its sentinel when it started. */
const sentinelPid = (path: string) => Number(readFileSync(path, "utf8").trim().split(" ")[1]);

describe("gjc plugin run", () => {
  test("the hello example calls git.status back against a real repository", async () => {
    const h = home();
    await installBundle(h, join(fixturesDir, "examples", "hello-runtime"));
    const repo = await dirtyRepo(join(h.root, "repo"));
    const r = await run(h, ["plugin", "run", "hello.dirty", "--args", JSON.stringify({ cwd: repo }), "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc.schema).toBe("gjc/plugin-run@1");
    expect(doc.plugin.name).toBe("hello-runtime");
    expect(doc.realm).toEqual({ kind: "user" });
    expect(doc.result).toEqual({ isRepo: true, branch: "main", changed: 2 });
    expect(r.stderr).toContain("[hello-runtime]");
  });

  test("git.status answers the documented shape (renames, staged and unstaged sides, untracked)", async () => {
    const h = home();
    const b = writeRuntimeBundle(join(h.root, "src"), { name: "status-probe", commands: [{ id: "probe.status" }] });
    await installBundle(h, b.dir);
    const repo = await dirtyRepo(join(h.root, "repo"));
    await Bun.spawn(["git", "mv", "b.txt", "c.txt"], { cwd: repo }).exited;
    const r = await run(h, ["plugin", "run", "probe.status", "--args", JSON.stringify({ cwd: repo }), "--json"]);
    expect(r.exitCode).toBe(0);
    const status = r.json().result.status;
    expect(status).toMatchObject({ is_repo: true, branch: "main", ahead: 0, behind: 0 });
    const byPath = Object.fromEntries(status.files.map((f: any) => [f.path, f]));
    expect(byPath["a.txt"]).toEqual({
      path: "a.txt",
      original_path: null,
      staged: false,
      unstaged: true,
      state: "modified",
      staged_state: null,
      unstaged_state: "modified",
    });
    expect(byPath["c.txt"]).toEqual({
      path: "c.txt",
      original_path: "b.txt",
      staged: true,
      unstaged: false,
      state: "renamed",
      staged_state: "renamed",
      unstaged_state: null,
    });
    expect(byPath["new file.txt"]).toMatchObject({ state: "untracked", staged: false, unstaged: true });
    const outside = await run(h, [
      "plugin",
      "run",
      "probe.status",
      "--args",
      JSON.stringify({ cwd: h.root }),
      "--json",
    ]);
    expect(outside.json().result.status).toEqual({ is_repo: false, branch: "", ahead: 0, behind: 0, files: [] });
  });

  test("an untrusted runtime is never spawned (sentinel), exit 3, nothing written", async () => {
    const h = unconfined(home());
    const sentinel = join(h.root, "sentinel");
    const b = writeRuntimeBundle(join(h.root, "src"), {
      name: "untrusted-one",
      commands: [{ id: "demo.echo" }],
      env: { GJC_TEST_SENTINEL: sentinel },
    });
    await installBundle(h, b.dir, { trust: false });
    const before = snapshotTree(h.dataDir);
    const r = await run(h, ["plugin", "run", "demo.echo", "--json"]);
    expect(r.exitCode).toBe(3);
    expect(errorOf(r).code).toBe("untrusted");
    expect(errorOf(r).hint).toContain("gjc plugin trust untrusted-one");
    expect(existsSync(sentinel)).toBe(false);
    expect(snapshotTree(h.dataDir)).toEqual(before);
  });

  test("disabled, unknown and missing-service refusals have distinct codes and start nothing", async () => {
    const h = unconfined(home());
    const sentinel = join(h.root, "sentinel");
    const disabled = writeRuntimeBundle(join(h.root, "d"), {
      name: "off-one",
      commands: [{ id: "off.echo" }],
      env: { GJC_TEST_SENTINEL: sentinel },
    });
    const pending = writeRuntimeBundle(join(h.root, "p"), {
      name: "needs-service",
      commands: [{ id: "needs.echo" }],
      inject: ["desktop-host-actions"],
      env: { GJC_TEST_SENTINEL: sentinel },
    });
    await installBundle(h, disabled.dir, { enabled: false });
    await installBundle(h, pending.dir);
    const before = snapshotTree(h.dataDir);

    const off = await run(h, ["plugin", "run", "off.echo", "--json"]);
    expect([off.exitCode, errorOf(off).code]).toEqual([3, "plugin_disabled"]);
    const unknown = await run(h, ["plugin", "run", "off.ecko", "--json"]);
    expect([unknown.exitCode, errorOf(unknown).code]).toEqual([1, "unknown_command"]);
    expect(errorOf(unknown).message).toContain('Did you mean "off.echo"?');
    const missing = await run(h, ["plugin", "run", "needs.echo", "--json"]);
    expect([missing.exitCode, errorOf(missing).code]).toEqual([1, "missing_service"]);
    expect(errorOf(missing).message).toContain("`desktop-host-actions`");
    const human = await run(h, ["plugin", "run", "needs.echo"]);
    expect(human.stderr).toContain("error[missing_service]");
    expect(human.stderr).toContain("hint:");

    expect(existsSync(sentinel)).toBe(false);
    expect(snapshotTree(h.dataDir)).toEqual(before);
  });

  test("handshake failures (drift, protocol 2.0.0, timeout) fail with their code and leave no process", async () => {
    const h = unconfined(home());
    const cases: [string, string, Record<string, string>][] = [
      ["drift", "handshake_mismatch", {}],
      ["protocol2", "handshake_protocol", {}],
      ["silent", "handshake_timeout", { GJC_C2_HANDSHAKE_TIMEOUT_MS: "2000" }],
    ];
    for (const [mode, code, env] of cases) {
      const sentinel = join(h.root, `sentinel-${mode}`);
      const b = writeRuntimeBundle(join(h.root, mode), {
        name: `hs-${mode}`,
        mode,
        commands: [{ id: `hs${mode}.echo`, argsSchema: { type: "object" } }],
        env: { GJC_TEST_SENTINEL: sentinel },
      });
      await installBundle(h, b.dir);
      const r = await run(h, ["plugin", "run", `hs${mode}.echo`, "--json"], env);
      expect([mode, r.exitCode, errorOf(r).code]).toEqual([mode, 1, code]);
      expect(errorOf(r).hint).toMatch(/reload/i);
      const pid = sentinelPid(sentinel);
      expect(processAlive(pid)).toBe(false);
      expect(liveGroupMembers(pid)).toEqual([]);
    }
  });

  test("--timeout stops a runtime that does not answer, and the plugin's own errors are passed through", async () => {
    const h = unconfined(home());
    const sentinel = join(h.root, "sentinel");
    const b = writeRuntimeBundle(join(h.root, "s"), {
      name: "slow-one",
      commands: [{ id: "slow.sleep" }, { id: "slow.fail" }],
      env: { GJC_TEST_SENTINEL: sentinel },
    });
    await installBundle(h, b.dir);
    const r = await run(h, ["plugin", "run", "slow.sleep", "--timeout", "200", "--json"]);
    expect([r.exitCode, errorOf(r).code]).toEqual([1, "invoke_timeout"]);
    expect(liveGroupMembers(sentinelPid(sentinel))).toEqual([]);
    const f = await run(h, ["plugin", "run", "slow.fail", "--args", '{"message":"no such thing"}', "--json"]);
    expect([f.exitCode, errorOf(f).code, errorOf(f).message]).toEqual([
      1,
      "plugin_command_failed",
      "slow.fail: no such thing",
    ]);
    const bad = await run(h, ["plugin", "run", "slow.fail", "--args", "{nope", "--json"]);
    expect([bad.exitCode, errorOf(bad).code]).toEqual([2, "invalid_option_value"]);
  });

  test("project realms: own data dir keyed by the BLAKE3 project hash; user-only runtimes stay global", async () => {
    const h = home();
    const both = writeRuntimeBundle(join(h.root, "both"), {
      name: "realmy",
      commands: [{ id: "realmy.info" }],
      scopeSupport: ["user", "project"],
    });
    const userOnly = writeRuntimeBundle(join(h.root, "user"), {
      name: "globally",
      commands: [{ id: "globally.info" }],
    });
    const a = await installBundle(h, both.dir);
    const g = await installBundle(h, userOnly.dir);
    const projA = join(h.root, "projA");
    await dirtyRepo(projA);
    const realA = realpathSync(projA);
    const r = await run(h, ["plugin", "run", "realmy.info", "--project", `${projA}/.`, "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc.realm).toEqual({ kind: "project", projectPath: realA });
    expect(doc.result.projectPath).toBe(realA);
    expect(doc.result.dataDir).toBe(join(h.dataDir, "plugins", ".data", a.id, "projects", await projectHash(realA)));
    expect(doc.result.cwd).toBe(join(h.dataDir, "plugins", a.id, "bundle"));
    const user = (await run(h, ["plugin", "run", "realmy.info", "--json"])).json();
    expect(user.result.projectPath).toBeNull();
    expect(user.result.dataDir).toBe(join(h.dataDir, "plugins", ".data", a.id));
    const global = (await run(h, ["plugin", "run", "globally.info", "--project", projA, "--json"])).json();
    expect(global.realm).toEqual({ kind: "user" });
    expect(global.result.projectPath).toBeNull();
    expect(global.result.dataDir).toBe(join(h.dataDir, "plugins", ".data", g.id));
  });

  test("a runtime disabled in one project is blocked there (no fallback) and runs elsewhere", async () => {
    const h = home();
    const both = writeRuntimeBundle(join(h.root, "both"), {
      name: "realmy",
      commands: [{ id: "realmy.info" }],
      scopeSupport: ["user", "project"],
    });
    await installBundle(h, both.dir);
    const projA = join(h.root, "projA");
    const projB = join(h.root, "projB");
    await dirtyRepo(projA);
    await dirtyRepo(projB);
    const plan = await run(h, [
      "plugin",
      "policy",
      "plan",
      "realmy",
      "--state",
      "disabled",
      "--project",
      projA,
      "--json",
    ]);
    expect(plan.exitCode).toBe(0);
    const applied = await run(h, ["plugin", "policy", "apply", plan.json().token, "--json"]);
    expect(applied.exitCode).toBe(0);
    const blocked = await run(h, ["plugin", "run", "realmy.info", "--project", projA, "--json"]);
    expect([blocked.exitCode, errorOf(blocked).code]).toEqual([3, "plugin_disabled"]);
    expect(errorOf(blocked).message).toContain(realpathSync(projA));
    expect(errorOf(blocked).hint).toContain("does not fall back");
    expect((await run(h, ["plugin", "run", "realmy.info", "--project", projB, "--json"])).exitCode).toBe(0);
    expect((await run(h, ["plugin", "run", "realmy.info", "--json"])).exitCode).toBe(0);
  });
});
