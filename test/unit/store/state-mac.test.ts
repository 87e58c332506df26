import { describe, expect, test } from "bun:test";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { createContext } from "../../../src/core/context.ts";
import { GjcError } from "../../../src/core/errors.ts";
import { registryMac, sameMac, stateKey, stateKeyPath } from "../../../src/store/state-mac.ts";
import { tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest("gjc-statekey-");
const ctxIn = (home: string) => createContext({ env: { HOME: home }, cwd: home, quiet: true });

describe("the state key", () => {
  test("is made on the first write: 32 random bytes, 0600, in a 0700 ~/.gjc; reads never make one", () => {
    const home = fresh();
    expect(stateKey(ctxIn(home), false)).toBeUndefined();
    const key = stateKey(ctxIn(home), true)!;
    expect(key.length).toBe(32);
    const path = stateKeyPath(ctxIn(home));
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(home, ".gjc")).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
    // Another home, another key: the same content gets another MAC.
    const other = stateKey(ctxIn(fresh()), true)!;
    expect(sameMac(registryMac(key, "project", "[]"), registryMac(other, "project", "[]"))).toBe(false);
    expect(sameMac(registryMac(key, "project", "[]"), registryMac(key, "project", "[]"))).toBe(true);
    expect(sameMac(registryMac(key, "project", "[]"), registryMac(key, "user", "[]"))).toBe(false);
  });

  test("processes making the key at the same moment all get one whole key (none reads it half-written)", async () => {
    const child = join(import.meta.dir, "state-key-child.ts");
    for (let round = 0; round < 4; round++) {
      const home = fresh();
      const runs = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const p = Bun.spawn([process.execPath, child, home], { stdout: "pipe", stderr: "pipe" });
          const [code, out, err] = await Promise.all([
            p.exited,
            new Response(p.stdout).text(),
            new Response(p.stderr).text(),
          ]);
          return { code, out: out.trim(), err };
        }),
      );
      for (const r of runs) expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
      expect(new Set(runs.map((r) => r.out)).size).toBe(1);
      expect(readFileSync(stateKeyPath(ctxIn(home)), "utf8")).toBe(`${runs[0].out}\n`);
      expect(readdirSync(join(home, ".gjc"))).toEqual(["state.key"]);
    }
  });

  const hostile: [string, (path: string, home: string) => void][] = [
    ["readable by others", (p) => (writeFileSync(p, `${"a".repeat(64)}\n`), chmodSync(p, 0o644))],
    [
      "a symbolic link",
      (p, home) => (
        writeFileSync(join(home, "elsewhere"), `${"a".repeat(64)}\n`, { mode: 0o600 }),
        symlinkSync(join(home, "elsewhere"), p)
      ),
    ],
    ["not a key", (p) => writeFileSync(p, "hello\n", { mode: 0o600 })],
  ];
  if (process.getuid?.() === 0)
    hostile.push([
      "another user's (needs root to make one)",
      (p) => (writeFileSync(p, `${"a".repeat(64)}\n`, { mode: 0o600 }), chownSync(p, 65534, 65534)),
    ]);
  for (const [what, plant] of hostile) {
    test(`a key file that is ${what} is refused, never used or replaced`, () => {
      const home = fresh();
      mkdirSync(join(home, ".gjc"), { mode: 0o700 });
      const path = stateKeyPath(ctxIn(home));
      plant(path, home);
      const before = lstatSync(path, { bigint: true }).ctimeNs;
      for (const create of [false, true]) {
        let error: unknown;
        try {
          stateKey(ctxIn(home), create);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(GjcError);
        expect((error as GjcError).code).toBe("security_policy");
      }
      expect(lstatSync(path, { bigint: true }).ctimeNs).toBe(before);
    });
  }
});
