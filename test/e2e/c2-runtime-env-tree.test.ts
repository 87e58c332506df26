/**
 * Issue #12 items 7 and 8 through the CLI: a runtime sees only the allow-list, its manifest's
 * values and what the user passed by name; and nothing it starts outlives `gjc plugin run`,
 * not even a daemon that called setsid or double-forked.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { processAlive, writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { c2HomesPerTest, installBundle, type C2Home } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();
const hostSecrets = {
  GITHUB_TOKEN: "ghp_host_secret",
  AWS_ACCESS_KEY_ID: "AKIAHOST",
  NODE_OPTIONS: "--no-warnings",
  LD_PRELOAD: "/nonexistent.so",
  DOCKER_HOST: "unix:///tmp/docker.sock",
};
const run = (h: C2Home, args: string[]) => runCli(args, { env: { ...h.env, ...hostSecrets }, cwd: h.root });
const recordOf = (h: C2Home, id: string) =>
  readFileSync(join(h.dataDir, "plugins", id, "installed-plugin.json"), "utf8");

describe.if(process.platform === "linux")("nothing outlives gjc plugin run", () => {
  test("a setsid daemon and a double-forked orphan are gone when the command returns", async () => {
    const h = home();
    const b = writeRuntimeBundle(join(h.root, "d"), { name: "daemonizer", commands: [{ id: "daemonizer.daemon" }] });
    await installBundle(h, b.dir);
    const r = await run(h, ["plugin", "run", "daemonizer.daemon", "--json"]);
    expect(r.exitCode).toBe(0);
    const { kept, orphan } = r.json().result as { kept: number; orphan: number };
    expect(kept).toBeGreaterThan(1);
    expect(orphan).toBeGreaterThan(1);
    expect([processAlive(kept), processAlive(orphan)]).toEqual([false, false]);
  });
});

describe("what a runtime's environment holds", () => {
  test("the allow-list and the manifest's values; credentials and loader switches never, even when the manifest names them", async () => {
    const h = home();
    const b = writeRuntimeBundle(join(h.root, "e"), {
      name: "env-reader",
      commands: [{ id: "envreader.env" }],
      env: { PLUGIN_MODE: "strict", NODE_OPTIONS: "--require ./evil.js", GITHUB_TOKEN: "from-manifest" },
    });
    await installBundle(h, b.dir);
    const r = await run(h, ["plugin", "run", "envreader.env", "--json"]);
    expect(r.exitCode).toBe(0);
    const env = r.json().result.env as Record<string, string>;
    expect(env.PLUGIN_MODE).toBe("strict");
    for (const name of [
      "GITHUB_TOKEN",
      "AWS_ACCESS_KEY_ID",
      "NODE_OPTIONS",
      "LD_PRELOAD",
      "DOCKER_HOST",
      "GJC_C2_DATA_DIR",
    ])
      expect(env[name]).toBeUndefined();
    expect(r.stderr).toContain("NODE_OPTIONS");
  });

  test("trust --pass-env gives a plugin a named host variable, inspect shows it, untrust forgets it", async () => {
    const h = home();
    const b = writeRuntimeBundle(join(h.root, "p"), { name: "docker-tools", commands: [{ id: "dockertools.env" }] });
    const { id } = await installBundle(h, b.dir);
    const trust = await run(h, ["plugin", "trust", "docker-tools", "--pass-env", "DOCKER_HOST", "--json"]);
    expect(trust.exitCode).toBe(0);
    expect(trust.json().passEnv).toEqual(["DOCKER_HOST"]);
    const r = await run(h, ["plugin", "run", "dockertools.env", "--json"]);
    expect(r.json().result.env.DOCKER_HOST).toBe("unix:///tmp/docker.sock");
    expect(r.json().result.env.GITHUB_TOKEN).toBeUndefined();
    const inspect = await run(h, ["plugin", "inspect", "docker-tools", "--json"]);
    expect(inspect.json().bundle.c2.passEnv).toEqual(["DOCKER_HOST"]);
    expect((await run(h, ["plugin", "inspect", "docker-tools"])).stdout).toContain("pass-env:  DOCKER_HOST");
    // The audit of the installed bundle lists it (name only) as passed to the runtime.
    const audit = await run(h, ["plugin", "audit", "docker-tools", "--json"]);
    expect(audit.exitCode).toBe(0);
    expect(audit.json().capabilities.env).toContainEqual({
      owner: "c2-runtime:runtime",
      name: "DOCKER_HOST",
      mode: "passes",
      from: "DOCKER_HOST",
      at: { file: "installed-plugin.json", pointer: "/pass_env/0" },
    });
    expect(audit.stdout).not.toContain("unix:///tmp/docker.sock");
    expect((await run(h, ["plugin", "audit", "docker-tools"])).stdout).toContain(
      "c2-runtime:runtime: DOCKER_HOST <- $DOCKER_HOST",
    );
    await run(h, ["plugin", "untrust", "docker-tools", "--json"]);
    expect(JSON.parse(recordOf(h, id)).pass_env).toBeUndefined();
    expect(
      (await run(h, ["plugin", "audit", "docker-tools", "--json"]))
        .json()
        .capabilities.env.map((v: { name: string }) => v.name),
    ).not.toContain("DOCKER_HOST");
  });

  test("--pass-env of a credential or a loader switch is refused (exit 3) and changes nothing", async () => {
    const h = home();
    const b = writeRuntimeBundle(join(h.root, "q"), { name: "greedy", commands: [{ id: "greedy.env" }] });
    const { id } = await installBundle(h, b.dir, { trust: false });
    const before = recordOf(h, id);
    for (const name of ["GITHUB_TOKEN", "AWS_REGION", "LD_PRELOAD", "NODE_OPTIONS", "DOCKER_HOST,MY_API_KEY"]) {
      const r = await run(h, ["plugin", "trust", "greedy", "--pass-env", name, "--json"]);
      expect([name, r.exitCode, JSON.parse(r.stdout).error.code]).toEqual([name, 3, "security_policy"]);
      expect(recordOf(h, id)).toBe(before);
    }
    const malformed = await run(h, ["plugin", "trust", "greedy", "--pass-env", "NOT-A-NAME", "--json"]);
    expect([malformed.exitCode, JSON.parse(malformed.stdout).error.code]).toEqual([2, "invalid_option_value"]);
    expect(recordOf(h, id)).toBe(before);
  });
});
