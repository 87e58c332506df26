/**
 * Policy is live across processes: a change made by another gjc process reaches a running
 * `gjc host --stdio` (watched with fs.watch, no polling) and stops exactly what may no longer
 * run, without waiting for a client request, then the plane emits `plugins.changed`. A
 * project-only change stops only that project's realm while calls in the user realm and in
 * another project stay in flight and then complete. Uninstall and replace go through under a
 * live host, which stops (or, for a replace, restarts on the new files) what ran the old ones.
 * Language servers kept by the plane obey the same policy.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { processAlive, writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { spawnHost, type HostClient } from "./c2-host-client.ts";
import { c2HomesPerTest, dirtyRepo, installBundle, type C2Home } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();
const errorOf = (r: { stderr: string }) =>
  JSON.parse(r.stderr.split("\n").find((l) => l.startsWith('{"error"'))!).error;

function cli(h: C2Home) {
  return (...args: string[]) => runCli(args, { env: { ...h.env, GJC_LOCK_TIMEOUT_MS: "60000" }, cwd: h.root });
}

async function liveSetup() {
  const h = home();
  const b = writeRuntimeBundle(join(h.root, "src"), {
    name: "realmy",
    commands: [{ id: "realmy.info" }, { id: "realmy.hold" }],
    scopeSupport: ["user", "project"],
  });
  const installed = await installBundle(h, b.dir);
  const projA = realpathSync(await dirtyRepo(join(h.root, "projA")));
  const projB = realpathSync(await dirtyRepo(join(h.root, "projB")));
  const c = spawnHost(h);
  // `await using live = await liveSetup()` stops the host when the test's block ends.
  return { h, c, installed, projA, projB, run: cli(h), [Symbol.asyncDispose]: () => c[Symbol.asyncDispose]() };
}

/** The next `plugins.changed` after `seen` notifications (woken by each arrival, no timers). */
const changedAfter = (c: HostClient, seen: number) =>
  c.waitFor((m) => m.method === "plugins.changed" && c.notifications.indexOf(m) >= seen);

async function applyPlan(run: ReturnType<typeof cli>, ...planArgs: string[]) {
  const plan = await run("plugin", "policy", "plan", ...planArgs, "--json");
  expect(plan.exitCode).toBe(0);
  const applied = await run("plugin", "policy", "apply", plan.json().token, "--json");
  expect(applied.exitCode).toBe(0);
}

describe("policy is live across processes", () => {
  test("a project-only change stops that project's realm; in-flight calls elsewhere complete", async () => {
    await using live = await liveSetup();
    const { c, projA, projB, run } = live;
    const pid = async (project?: string) =>
      (await c.result("plugins.invoke", { command: "realmy.info", ...(project ? { project_path: project } : {}) }))
        .result.pid as number;
    const [user, a, b] = [await pid(), await pid(projA), await pid(projB)];
    // Two calls that stay in flight until a second hold arrives in the same process.
    const userHold = c.call("plugins.invoke", { command: "realmy.hold", args: { until: 2 } });
    const bHold = c.call("plugins.invoke", { command: "realmy.hold", args: { until: 2 }, project_path: projB });
    const seen = c.notifications.length;
    await applyPlan(run, "realmy", "--state", "disabled", "--project", projA);
    const changed = await changedAfter(c, seen);
    expect(changed.params.stopped.runtimes).toEqual([expect.stringContaining(`@project:${projA}`)]);
    expect(processAlive(a)).toBe(false);
    expect(processAlive(user)).toBe(true);
    expect(processAlive(b)).toBe(true);
    // The in-flight calls were untouched: they complete now.
    const [u2, b2] = await Promise.all([
      c.result("plugins.invoke", { command: "realmy.hold", args: { until: 2 } }),
      c.result("plugins.invoke", { command: "realmy.hold", args: { until: 2 }, project_path: projB }),
    ]);
    expect(u2.result).toEqual({ held: 2 });
    expect(b2.result).toEqual({ held: 2 });
    expect((await userHold).result.result).toEqual({ held: 2 });
    expect((await bHold).result.result).toEqual({ held: 2 });
    expect(await pid()).toBe(user);
    expect(await pid(projB)).toBe(b);
    const refused = await c.call("plugins.invoke", { command: "realmy.info", project_path: projA });
    expect(refused.error.data.code).toBe("plugin_disabled");
  });

  test("disable and untrust raced by two gjc processes stop every realm at once, with no client request", async () => {
    await using live = await liveSetup();
    const { c, projA, run } = live;
    const user = (await c.result("plugins.invoke", { command: "realmy.info" })).result.pid;
    const a = (await c.result("plugins.invoke", { command: "realmy.info", project_path: projA })).result.pid;
    const seen = c.notifications.length;
    const [d, u] = await Promise.all([run("plugin", "disable", "realmy"), run("plugin", "untrust", "realmy")]);
    expect([d.exitCode, u.exitCode]).toEqual([0, 0]);
    await changedAfter(c, seen);
    // Both changes may land in one burst or two; wait until the host has seen the final state.
    for (;;) {
      const list = (await c.result("plugins.list")).plugins[0];
      if (!list.enabled && !list.trusted) break;
      await changedAfter(c, c.notifications.length);
    }
    expect(processAlive(user)).toBe(false);
    expect(processAlive(a)).toBe(false);
    expect((await c.result("plugins.processes")).processes).toEqual([]);
  });

  test("a change is seen even while an unusable record keeps the records index from being rewritten", async () => {
    await using live = await liveSetup();
    const { h, c, run } = live;
    const user = (await c.result("plugins.invoke", { command: "realmy.info" })).result.pid;
    mkdirSync(join(h.dataDir, "plugins", "stray-00000000"));
    const seen = c.notifications.length;
    expect((await run("plugin", "untrust", "realmy")).exitCode).toBe(0);
    await changedAfter(c, seen);
    expect(processAlive(user)).toBe(false);
  });

  test("uninstall goes through while a host runs the bundle: the host stops every realm at once and says so", async () => {
    await using live = await liveSetup();
    const { h, c, installed, projA, run } = live;
    const user = (await c.result("plugins.invoke", { command: "realmy.info" })).result.pid;
    const a = (await c.result("plugins.invoke", { command: "realmy.info", project_path: projA })).result.pid;
    const bundleDir = join(h.dataDir, "plugins", installed.id, "bundle");
    const seen = c.notifications.length;
    const removed = await run("plugin", "uninstall", "realmy", "--json");
    expect(removed.exitCode).toBe(0);
    expect(removed.json().warnings).toContainEqual(
      expect.objectContaining({ code: "bundle_in_use", message: expect.stringContaining(`pid ${c.proc.pid}`) }),
    );
    const changed = await changedAfter(c, seen);
    expect([...changed.params.stopped.runtimes].sort()).toEqual([
      `${installed.id}@project:${projA}`,
      `${installed.id}@user`,
    ]);
    expect(processAlive(user)).toBe(false);
    expect(processAlive(a)).toBe(false);
    expect(existsSync(bundleDir)).toBe(false);
    expect((await c.result("plugins.list")).plugins).toEqual([]);
    expect((await c.result("plugins.processes")).processes).toEqual([]);
  });

  test("upgrade and install --force go through while a host runs the bundle: the old process stops and the next call starts the new files", async () => {
    await using live = await liveSetup();
    const { h, c, installed, run } = live;
    const before = (await c.result("plugins.invoke", { command: "realmy.info" })).result.pid;
    const home = join(h.dataDir, "plugins", installed.id);
    let version = 1;
    for (const args of [
      ["plugin", "install", join(h.root, "src"), "--force", "--json"],
      ["plugin", "upgrade", "realmy", "--json"],
    ]) {
      const old = (await c.result("plugins.invoke", { command: "realmy.info" })).result.pid;
      writeRuntimeBundle(join(h.root, "src"), {
        name: "realmy",
        version: `1.${version}.0`,
        commands: [{ id: "realmy.info" }, { id: "realmy.hold" }],
        scopeSupport: ["user", "project"],
      });
      const seen = c.notifications.length;
      const replaced = await run(...args);
      expect(replaced.exitCode).toBe(0);
      expect(replaced.json().warnings).toContainEqual(
        expect.objectContaining({ code: "bundle_in_use", message: expect.stringContaining("runs the new files") }),
      );
      expect(JSON.parse(readFileSync(join(home, "installed-plugin.json"), "utf8")).version).toBe(`1.${version}.0`);
      const changed = await changedAfter(c, seen);
      expect(changed.params.stopped.runtimes).toEqual([`${installed.id}@user`]);
      expect(processAlive(old)).toBe(false);
      const after = await c.result("plugins.invoke", { command: "realmy.info" });
      expect(after.plugin).toMatchObject({ id: installed.id, version: `1.${version}.0` });
      expect(after.result.pid).not.toBe(old);
      expect(after.result.pid).not.toBe(before);
      version++;
    }
    expect(readdirSync(join(h.dataDir, "plugins")).filter((n) => n.startsWith(".") && n !== ".data")).toEqual([]);
  });
});

describe("language servers obey policy", () => {
  function lspBundle(h: C2Home, dir: string, name: string, languages: string[]) {
    return writeRuntimeBundle(join(h.root, dir), {
      name,
      commands: [{ id: `${name.replace(/-/g, "")}.echo` }],
      languageServers: [
        {
          id: "ls",
          languages,
          command: "./lsp-server.mjs",
          args: ["--stdio", "${PLUGIN_ROOT}/x"],
          env: { LSP_MODE: "root=${PLUGIN_ROOT}" },
        },
      ],
      extraFiles: { "lsp-server.mjs": readFileSync(join(fixturesDir, "runtimes", "lsp-server.mjs"), "utf8") },
    }).dir;
  }

  test("disabling by policy stops a live server and probe refuses it; a new provider makes the language fail closed", async () => {
    const h = home();
    const one = await installBundle(h, lspBundle(h, "a", "zig-one", ["zig"]));
    const run = cli(h);
    await using c = spawnHost(h);
    const started = await c.result("lsp.start", { language: "zig" });
    expect(started).toMatchObject({ plugin: one.id, server: "ls", capabilities: { hoverProvider: true } });
    const hover = (await c.result("lsp.request", { id: started.id, method: "textDocument/hover", params: {} })).result;
    // Args and env verbatim, as the standard says (no expansion); the bundle root is exported as PLUGIN_ROOT.
    const root = join(h.dataDir, "plugins", one.id, "bundle");
    expect(hover).toMatchObject({
      contents: `hover from ${started.pid}`,
      args: ["--stdio", "${PLUGIN_ROOT}/x"],
      env: { PLUGIN_ROOT: root, LSP_MODE: "root=${PLUGIN_ROOT}" },
    });

    // A disable planned through the plane names the live server it would stop.
    const planned = await c.result("plugins.plan_change", { plugin: "zig-one", state: "disabled" });
    expect(planned).toMatchObject({ requires_confirmation: true });
    expect(planned.active_resources).toContainEqual(
      expect.objectContaining({ kind: "process", label: expect.stringContaining("language server ls") }),
    );

    const inspect = (await run("plugin", "inspect", "zig-one", "--json")).json().bundle;
    expect(inspect.c2.languageServers[0].launch).toMatchObject({
      command: join(root, "lsp-server.mjs"),
      args: ["--stdio", "${PLUGIN_ROOT}/x"],
      env: { LSP_MODE: "root=${PLUGIN_ROOT}" },
      exported: { PLUGIN_ROOT: root },
    });
    expect((await run("plugin", "inspect", "zig-one")).stdout).toContain("args and env as declared");

    let seen = c.notifications.length;
    await applyPlan(run, "zig-one", "--state", "disabled");
    const changed = await changedAfter(c, seen);
    expect(changed.params.stopped.language_servers).toEqual([`${started.id}:${one.id}/ls`]);
    expect(processAlive(started.pid)).toBe(false);
    expect((await c.result("lsp.list")).servers).toEqual([]);
    const probe = await run("plugin", "lsp", "probe", "zig-one/ls", "--json");
    expect(probe.exitCode).toBe(3);
    expect(errorOf(probe).code).toBe("policy_disabled");
    expect((await run("plugin", "lsp", "list", "--json")).json().servers[0]).toMatchObject({
      status: "disabled",
      reasons: [{ code: "policy_disabled" }],
    });

    // Back on; then a second provider of zig arrives: the live server stops (conflict).
    seen = c.notifications.length;
    await applyPlan(run, "zig-one", "--state", "inherit");
    await changedAfter(c, seen);
    const again = await c.result("lsp.start", { server: "zig-one/ls" });
    seen = c.notifications.length;
    await installBundle(h, lspBundle(h, "b", "zig-two", ["zig"]));
    await changedAfter(c, seen);
    // The trust step of installBundle is a second change; wait until the conflict took effect.
    while ((await c.result("lsp.list")).servers.length > 0) await changedAfter(c, c.notifications.length);
    expect(processAlive(again.pid)).toBe(false);
    const conflict = await c.call("lsp.start", { language: "zig" });
    expect(conflict.error.data.code).toBe("lsp_conflict");
    const probed = await run("plugin", "lsp", "probe", "zig-one/ls", "--json");
    expect(probed.exitCode).toBe(3);
    expect(errorOf(probed).code).toBe("lsp_conflict");
    // Untrusting one provider resolves the conflict for the other.
    expect((await run("plugin", "untrust", "zig-two")).exitCode).toBe(0);
    expect((await run("plugin", "lsp", "probe", "zig-one/ls", "--json")).exitCode).toBe(0);
  });
});
