import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { liveGroupMembers, writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { c2Home, dirtyRepo, installBundle, type C2Home } from "./c2-runtime-setup.ts";

const homes: C2Home[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) h.cleanup();
});

describe("plugin run from the compiled binary", () => {
  test("hello.dirty through the whole path, then untrusted and handshake refusals with nothing left running", async () => {
    const binary = await compiledBinary();
    const h = c2Home();
    homes.push(h);
    await installBundle(h, join(fixturesDir, "examples", "hello-runtime"));
    const repo = await dirtyRepo(join(h.root, "repo"));
    const run = (args: string[], env: Record<string, string> = {}) =>
      runCli(args, { binary, env: { ...h.env, ...env }, cwd: h.root });

    const ok = await run(["plugin", "run", "hello.dirty", "--args", JSON.stringify({ cwd: repo }), "--json"]);
    expect(ok.exitCode).toBe(0);
    expect(ok.json().result).toEqual({ isRepo: true, branch: "main", changed: 2 });

    // From here the fixtures report through a sentinel outside their sandbox: unconfined (the
    // sandbox from the compiled binary is tested in sandbox.compiled.test.ts).
    const unconfined = { GJC_SANDBOX: "off" };
    const sentinel = join(h.root, "sentinel");
    const untrusted = writeRuntimeBundle(join(h.root, "u"), {
      name: "untrusted-one",
      commands: [{ id: "u.echo" }],
      env: { GJC_TEST_SENTINEL: sentinel },
    });
    await installBundle(h, untrusted.dir, { trust: false });
    const refused = await run(["plugin", "run", "u.echo", "--json"], unconfined);
    expect(refused.exitCode).toBe(3);
    expect(JSON.parse(refused.stdout).error.code).toBe("untrusted");
    expect(existsSync(sentinel)).toBe(false);

    const drift = writeRuntimeBundle(join(h.root, "d"), {
      name: "drifty",
      mode: "drift",
      commands: [{ id: "d.echo", argsSchema: { type: "object" } }],
      env: { GJC_TEST_SENTINEL: sentinel },
    });
    await installBundle(h, drift.dir);
    const failed = await run(["plugin", "run", "d.echo", "--json"], unconfined);
    expect(failed.exitCode).toBe(1);
    expect(JSON.parse(failed.stdout).error.code).toBe("handshake_mismatch");
    const pid = Number(readFileSync(sentinel, "utf8").split(" ")[1]);
    expect(liveGroupMembers(pid)).toEqual([]);
  });
});
