/**
 * An https git source, typed or named by a catalog entry, meets the network address policy
 * that archive URLs meet: the same refusal code and exit status, nothing written, and the
 * user's git is never started for a denied literal host (a PATH wrapper records every call).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { snapshotTree } from "../helpers/tmp.ts";
import { makeWorld, type World } from "./gjc-install-fixture.ts";

let w: World;
afterEach(() => w?.cleanup());

function world() {
  w = makeWorld();
  const bin = join(w.root, "bin");
  const log = join(w.root, "git-calls.log");
  mkdirSync(bin);
  writeFileSync(join(bin, "git"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${Bun.which("git")}' "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH}` };
  const calls = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
  return { env, calls };
}

const errorOf = (stderr: string) => JSON.parse(stderr.trim().split("\n").at(-1) as string).error;

const DENIED = [
  "https://127.0.0.1/x.git",
  "https://[::ffff:127.0.0.1]/x.git",
  "https://169.254.169.254/x.git",
  "https://2130706433/x.git",
  "https://localhost/x.git",
];

describe("git remotes under the network address policy", () => {
  test("denied https hosts are refused like the same host's archive URL; git never starts; nothing written", async () => {
    const { env, calls } = world();
    const tarball = await w.gjc(["plugin", "install", "https://127.0.0.1/x.tgz", "--user", "--json"], { env });
    expect(tarball.exitCode).toBe(3);
    expect(errorOf(tarball.stderr).code).toBe("security_policy");
    const before = snapshotTree(w.root);
    for (const url of [...DENIED, "http://[::ffff:127.0.0.1]/x.git", "ext::sh -c id", "fd::3"]) {
      for (const scope of ["--user", "--project"]) {
        const r = await w.gjc(["plugin", "install", url, scope, "--json"], { env });
        expect({ url, exit: r.exitCode }).toEqual({ url, exit: 3 });
        expect(errorOf(r.stderr).code).toBe("security_policy");
      }
    }
    expect(calls()).toBe("");
    expect(snapshotTree(w.root)).toEqual(before);
  });

  test("a catalog entry naming a denied git host is refused the same way (C2 catalog)", async () => {
    const { env, calls } = world();
    const cat = join(w.root, "cat");
    const plugins = DENIED.map((url, i) => ({ name: `evil${i}`, version: "1.0.0", source: { kind: "git", url } }));
    mkdirSync(cat);
    writeFileSync(
      join(cat, "marketplace.json"),
      JSON.stringify({ standardVersion: "1.0.0", name: "hostile", displayName: "Hostile", plugins }),
    );
    const before = snapshotTree(w.root);
    for (let i = 0; i < DENIED.length; i++) {
      const r = await w.gjc(["plugin", "install", `evil${i}@${cat}`, "--user", "--json"], { env });
      expect({ url: DENIED[i], exit: r.exitCode }).toEqual({ url: DENIED[i], exit: 3 });
      expect(errorOf(r.stderr).code).toBe("security_policy");
    }
    expect(calls()).toBe("");
    expect(snapshotTree(w.root)).toEqual(before);
  });
});
