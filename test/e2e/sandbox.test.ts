import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { spawnHost } from "./c2-host-client.ts";
import { c2HomesPerTest, installBundle, type C2Home } from "./c2-runtime-setup.ts";
import {
  expectDefaultDenials,
  installC2Prober,
  otherC2Bundle,
  PROBE_CHECKS,
  probeWorld,
  type ProbeWorld,
} from "./sandbox-world.ts";

const home = c2HomesPerTest();
const run = (h: C2Home, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { env: { ...h.env, ...env }, cwd: h.root });

let world: ProbeWorld | undefined;
afterEach(() => {
  world?.close();
  world = undefined;
});

describe("a C2 runtime runs in the default sandbox", () => {
  test("it reads its bundle and writes its data and temp dirs; secrets, home, project, shared /tmp, TCP, UDP and DNS are denied, to its forked child and setsid daemon too", async () => {
    const h = home();
    world = await probeWorld(h, await otherC2Bundle(h));
    const targets = world.targets("plugin.json");
    const b = writeRuntimeBundle(join(h.root, "probe-src"), {
      name: "prober",
      commands: [{ id: "prober.probe" }],
      extraFiles: { "probe-checks.mjs": PROBE_CHECKS, "probe-targets.json": JSON.stringify(targets) },
    });
    await installBundle(h, b.dir);
    const r = await run(h, ["plugin", "run", "prober.probe", "--json"]);
    expect(r.exitCode).toBe(0);
    const report = r.json().result;
    expect(expectDefaultDenials(report, ["read own", "write tmpdir", "write data"])).toEqual({
      leaks: [],
      blocked: [],
    });
    // Denied by Landlock, or not there at all: the home is an empty tmpfs in the sandbox's mount namespace.
    expect(["EACCES", "ENOENT"]).toContain(report["read ssh"]);
    expect(["EACCES", "ENOENT"]).toContain(report["write home"]);
    // A UNIX socket at a path (an ssh or gpg agent, docker.sock) cannot be reached: it is not there.
    expect([report["unix home"], report["unix tmp"]]).toEqual(["ENOENT", "ENOENT"]);
    expect(world.unixAccepted()).toBe(0);
    expect([world.tcpAccepted(), world.udpReceived()]).toEqual([0, 0]);

    // The probe can tell: unconfined, the same attempts succeed.
    const open = (await run(h, ["plugin", "run", "prober.probe", "--json"], { GJC_SANDBOX: "off" })).json().result;
    expect([open["read ssh"], open["write home"], open.tcp, open.udp, open.daemon["read stateKey"]]).toEqual([
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
    ]);
  });
});

describe("denials and platforms", () => {
  test("a refused connection names the grant that would allow it, in the --json warnings and once on stderr", async () => {
    const h = home();
    world = await installC2Prober(h);
    const port = world.targets("plugin.json").tcp.port;
    const r = await run(h, ["plugin", "run", "prober.probe", "--json"]);
    expect(r.exitCode).toBe(0);
    const allow = `gjc plugin allow prober --runtime --net 127.0.0.1:${port}`;
    expect(r.json().warnings).toContainEqual({
      code: "sandbox_denied",
      message: `prober (runtime) tried to connect to 127.0.0.1:${port}, which its sandbox does not allow`,
      hint: `if it should: ${allow}`,
    });
    expect(r.stderr.split(allow).length - 1).toBe(1);
  });

  test("without a network namespace (no unshare), Landlock TCP rules and seccomp still deny every attempt, and nothing is warned", async () => {
    const h = home();
    world = await installC2Prober(h);
    const r = await run(h, ["plugin", "run", "prober.probe", "--json"], { GJC_SANDBOX_WITHOUT: "netns" });
    expect(r.exitCode).toBe(0);
    // Without a mount namespace a UNIX socket at a path stays reachable (Landlock up to ABI 7 does
    // not restrict connect on one): the gap the README and doctor name, and nothing else.
    const { leaks, blocked } = expectDefaultDenials(r.json().result, ["read own", "write tmpdir", "write data"]);
    expect(blocked).toEqual([]);
    expect(leaks.filter((l) => !/ unix (home|tmp)$/.test(l))).toEqual([]);
    expect(r.stderr).not.toContain("sandbox_unavailable");
    expect([world.tcpAccepted(), world.udpReceived()]).toEqual([0, 0]);
  });

  test("where Landlock is missing: sandbox_unavailable once and the process runs unconfined; GJC_SANDBOX=require refuses (exit 3) and starts nothing", async () => {
    const h = home();
    world = await installC2Prober(h);
    const r = await run(h, ["plugin", "run", "prober.probe", "--json"], { GJC_SANDBOX_WITHOUT: "landlock" });
    expect(r.exitCode).toBe(0);
    expect(r.json().result["read ssh"]).toBe("ok");
    expect(r.json().warnings.map((w: { code: string }) => w.code)).toContain("sandbox_unavailable");
    expect(r.stderr.split("warning[sandbox_unavailable]").length - 1).toBe(1);
    expect(r.stderr).toContain("missing Landlock");

    for (const role of ["main", "fork", "daemon"]) rmSync(join(h.home, `written.${role}`));
    const before = snapshotTree(h.home);
    const refused = await run(h, ["plugin", "run", "prober.probe", "--json"], {
      GJC_SANDBOX_WITHOUT: "landlock",
      GJC_SANDBOX: "require",
    });
    expect([refused.exitCode, refused.json().error.code]).toEqual([3, "sandbox_unavailable"]);
    expect(refused.json().error.message).toContain("GJC_SANDBOX=require");
    // Nothing ran: the probe's own writes (it could have made them unconfined) are not there.
    expect(snapshotTree(h.home)).toEqual(before);
  });

  test("GJC_SANDBOX=off runs unconfined and says so", async () => {
    const h = home();
    world = await installC2Prober(h);
    const r = await run(h, ["plugin", "run", "prober.probe", "--json"], { GJC_SANDBOX: "off" });
    expect(r.exitCode).toBe(0);
    expect(r.json().result["read stateKey"]).toBe("ok");
    expect(r.json().warnings[0]).toMatchObject({ code: "sandbox_off" });
    expect(r.stderr).toContain("warning[sandbox_off]: GJC_SANDBOX=off: plugin processes run unconfined");
  });
});

describe("a C2 language server runs in the default sandbox", () => {
  test("under lsp probe, the same attempts fail and its own bundle reads", async () => {
    const h = home();
    world = await probeWorld(h, await otherC2Bundle(h));
    const b = writeRuntimeBundle(join(h.root, "lsp-src"), {
      name: "lsp-prober",
      commands: [{ id: "lspprober.echo" }],
      // Language server args are passed verbatim (no ${PLUGIN_ROOT}): the bundled script is the command.
      languageServers: [{ id: "probe", languages: ["zig"], command: "./probe-lsp.mjs", args: [] }],
      extraFiles: {
        "probe-lsp.mjs": `#!/usr/bin/env node\n${readFileSync(join(fixturesDir, "sandbox", "probe-lsp.mjs"), "utf8")}`,
        "probe-checks.mjs": PROBE_CHECKS,
        "probe-targets.json": JSON.stringify(world.targets("$PLUGIN_ROOT/plugin.json")),
      },
    });
    await installBundle(h, b.dir);
    const project = join(h.root, "proj");
    await Bun.write(join(project, "x.zig"), "");
    const r = await run(h, ["plugin", "lsp", "probe", "lsp-prober/probe", "--project", project, "--json"]);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.json().serverInfo.version);
    expect(expectDefaultDenials(report)).toEqual({ leaks: [], blocked: [] });
    expect(r.json().warnings).toContainEqual(
      expect.objectContaining({
        code: "sandbox_denied",
        hint: `if it should: gjc plugin allow lsp-prober --lsp probe --net 127.0.0.1:${world.targets("x").tcp.port}`,
      }),
    );
    expect([world.tcpAccepted(), world.udpReceived()]).toEqual([0, 0]);
  });
});

describe("gjc plugin doctor", () => {
  test("reports which mechanisms are active, and what a machine without one falls back to or misses", async () => {
    const h = home();
    const full = (await run(h, ["plugin", "doctor", "--json"])).json().sandbox;
    expect(full).toMatchObject({
      mode: "default",
      enforced: true,
      landlock: { active: true, tcp: true, scoped: true },
      seccomp: { active: true },
      namespaces: { active: true },
      network: "namespace",
      missing: [],
      fallbacks: [],
    });
    const noNetns = (await run(h, ["plugin", "doctor", "--json"], { GJC_SANDBOX_WITHOUT: "netns" })).json().sandbox;
    expect(noNetns).toMatchObject({
      enforced: true,
      namespaces: { active: false, unshare: null },
      network: "landlock-tcp",
      missing: [],
    });
    expect(noNetns.fallbacks[0]).toContain("Landlock port rules");
    const human = await run(h, ["plugin", "doctor"], { GJC_SANDBOX_WITHOUT: "landlock,seccomp" });
    expect(human.stdout).toContain("Plugin sandbox: not available: plugin processes run unconfined");
    expect(human.stdout).toContain("missing: Landlock (files are not confined)");
    expect((await run(h, ["plugin", "doctor"], { GJC_SANDBOX: "off" })).stdout).toContain("Plugin sandbox: OFF");
  });
});

describe("gjc host --stdio", () => {
  test("a connection its runtime was refused reaches the client as a plugins.sandbox_notice notification naming the grant", async () => {
    const h = home();
    world = await installC2Prober(h);
    const port = world.targets("plugin.json").tcp.port;
    await using c = spawnHost(h);
    const result = await c.result("plugins.invoke", { command: "prober.probe" });
    expect(result.result.tcp).toBe("EACCES");
    const notice = await c.waitFor((m) => m.method === "plugins.sandbox_notice" && m.params.code === "sandbox_denied");
    expect(notice.params.hint).toBe(`if it should: gjc plugin allow prober --runtime --net 127.0.0.1:${port}`);
  });
});
