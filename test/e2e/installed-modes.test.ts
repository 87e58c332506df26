/**
 * Issue #12, class 10: no installed file of either family keeps group/other write or
 * setuid/setgid, from a directory source whatever its modes, and verify agrees afterwards.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let world: World | undefined;
afterEach(() => world?.cleanup());

/** Every regular file under a directory with its mode bits (0o7777). */
function modes(dir: string, rel = ""): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of readdirSync(join(dir, rel))) {
    const r = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, r));
    if (st.isDirectory()) Object.assign(out, modes(dir, r));
    else out[r] = st.mode & 0o7777;
  }
  return out;
}

const HOSTILE_MODES = [0o777, 0o666, 0o4755, 0o2755, 0o6777, 0o1777, 0o664];

describe("installed file modes", () => {
  test("GJC: declared files with world-writable, setuid, setgid or sticky modes are installed without those bits", async () => {
    const w = (world = makeWorld());
    const src = writeBundle(join(w.root, "src"), "modes", { tools: HOSTILE_MODES.map((_, i) => `t${i}`) });
    HOSTILE_MODES.forEach((m, i) => chmodSync(join(src, "tools", `t${i}.ts`), m));
    const r = await w.gjc(["plugin", "install", src, "--user", "--json"]);
    expect(r.exitCode).toBe(0);
    const installed = Object.entries(modes(w.user)).filter(([p]) => p.includes("/tools/"));
    expect(installed.length).toBe(HOSTILE_MODES.length);
    for (const [path, mode] of installed) {
      expect({ path, bad: mode & 0o7022 }).toEqual({ path, bad: 0 });
    }
    // The owner's execute bit stays where the source had it.
    expect(installed.find(([p]) => p.endsWith("t0.ts"))![1]).toBe(0o755);
    expect(installed.find(([p]) => p.endsWith("t1.ts"))![1]).toBe(0o644);
    const v = await w.gjc(["plugin", "verify", "--json"]);
    expect(v.exitCode).toBe(0);
  });

  test("C2: the whole tree's hostile modes are dropped the same way", async () => {
    const w = (world = makeWorld());
    const b = writeRuntimeBundle(join(w.root, "c2src"), {
      name: "modes-c2",
      extraFiles: Object.fromEntries(HOSTILE_MODES.map((_, i) => [`bin/f${i}`, `#${i}\n`])),
    });
    HOSTILE_MODES.forEach((m, i) => chmodSync(join(b.dir, "bin", `f${i}`), m));
    chmodSync(join(b.dir, "runtime.mjs"), 0o666);
    const r = await w.gjc(["plugin", "install", b.dir, "--user", "--json"]);
    expect(r.exitCode).toBe(0);
    const all = modes(join(w.env.GJC_C2_DATA_DIR, "plugins"));
    const files = Object.entries(all).filter(([p]) => p.includes("/bin/") || p.endsWith("runtime.mjs"));
    expect(files.length).toBe(HOSTILE_MODES.length + 1);
    for (const [path, mode] of files) expect({ path, bad: mode & 0o7022 }).toEqual({ path, bad: 0 });
    const v = await w.gjc(["plugin", "verify", "--json"]);
    expect(v.exitCode).toBe(0);
  });
});
