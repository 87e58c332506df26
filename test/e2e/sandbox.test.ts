import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleDir, c2Layout } from "../../src/c2store/paths.ts";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { c2HomesPerTest, installBundle, type C2Home } from "./c2-runtime-setup.ts";
import { expectDefaultDenials, probeWorld, type ProbeWorld } from "./sandbox-world.ts";

const home = c2HomesPerTest();
const run = (h: C2Home, args: string[], env: Record<string, string> = {}) => runCli(args, { env: { ...h.env, ...env }, cwd: h.root });
const PROBE_CHECKS = readFileSync(join(fixturesDir, "sandbox", "probe-checks.mjs"), "utf8");

let world: ProbeWorld | undefined;
afterEach(() => {
  world?.close();
  world = undefined;
});

/** Installs a bundle to be "another bundle's files" and returns one of its installed files. */
async function otherBundle(h: C2Home): Promise<string> {
  const other = writeRuntimeBundle(join(h.root, "other-src"), { name: "other-one", commands: [{ id: "other.echo" }] });
  const { id } = await installBundle(h, other.dir);
  return join(bundleDir(c2Layout(h.ctx), id), "plugin.json");
}

describe("a C2 runtime runs in the default sandbox", () => {
  test("it reads its bundle and writes its data and temp dirs; secrets, home, project, shared /tmp, TCP, UDP and DNS are denied, to its forked child and setsid daemon too", async () => {
    const h = home();
    world = await probeWorld(h, await otherBundle(h));
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
    expect(expectDefaultDenials(report, ["read own", "write tmpdir", "write data"])).toEqual({ leaks: [], blocked: [] });
    expect(report["read ssh"]).toBe("EACCES");
    expect(report["write home"]).toBe("EACCES");
    expect([world.tcpAccepted(), world.udpReceived()]).toEqual([0, 0]);

    // The probe can tell: unconfined, the same attempts succeed.
    const open = (await run(h, ["plugin", "run", "prober.probe", "--json"], { GJC_SANDBOX: "off" })).json().result;
    expect([open["read ssh"], open["write home"], open.tcp, open.udp, open.daemon["read stateKey"]]).toEqual(["ok", "ok", "ok", "ok", "ok"]);
  });
});
