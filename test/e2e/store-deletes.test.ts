/**
 * Issue #12, class 3: never delete through links, never act on a registry gjc could not have
 * written, bounded registry reads, and a missing registry.json fails closed until doctor --fix
 * restores the last good copy (its content directories are never swept meanwhile).
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { snapshotTree } from "../helpers/tmp.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let world: World | undefined;
afterEach(() => world?.cleanup());
const errorOf = (r: { stdout: string }) => JSON.parse(r.stdout).error as { code: string; message: string };
const registry = (w: World) => JSON.parse(readFileSync(join(w.user, "registry.json"), "utf8"));

async function installed(w: World, name = "alpha") {
  const r = await w.gjc(["plugin", "install", writeBundle(join(w.root, `src-${name}`), name), "--user", "--json"]);
  expect(r.exitCode).toBe(0);
  return registry(w).plugins.find((p: any) => p.name === name);
}

describe("deletes stay inside real content directories", () => {
  test("a content directory swapped for a link to a directory holding the same names: uninstall removes the link only", async () => {
    const w = (world = makeWorld());
    const entry = await installed(w);
    const outside = join(w.root, "victim");
    mkdirSync(outside);
    for (const f of entry.copiedFiles) {
      mkdirSync(join(outside, f.relativePath, ".."), { recursive: true });
      writeFileSync(join(outside, f.relativePath), "precious\n");
    }
    const victim = snapshotTree(outside);
    renameSync(entry.pluginRoot, join(w.root, "moved-away"));
    symlinkSync(outside, entry.pluginRoot);
    const r = await w.gjc(["plugin", "uninstall", "alpha", "--user", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(snapshotTree(outside)).toEqual(victim);
    expect(existsSync(entry.pluginRoot)).toBe(false);
    expect(registry(w).plugins).toEqual([]);
  });

  test("registry entries claiming more files than an install may hold, or impossible sizes, make the scope corrupt: nothing is loaded, changed or deleted", async () => {
    const w = (world = makeWorld());
    const entry = await installed(w);
    const good = readFileSync(join(w.user, "registry.json"), "utf8");
    const forged = (edit: (e: any) => void) => {
      const reg = JSON.parse(good);
      edit(reg.plugins[0]);
      writeFileSync(join(w.user, "registry.json"), JSON.stringify(reg));
    };
    for (const edit of [
      (e: any) =>
        (e.copiedFiles = [
          e.copiedFiles[0],
          ...Array.from({ length: 9000 }, (_, i) => ({
            relativePath: `f${i}`,
            sha256: "0".repeat(64),
            bytes: 1,
            mode: 0o644,
          })),
        ]),
      (e: any) => (e.copiedFiles[0].bytes = 2 ** 40),
    ]) {
      forged(edit);
      const before = snapshotTree(w.root);
      const list = await w.gjc(["plugin", "list", "--json"]);
      expect(list.json().problems.map((c: any) => c.scope)).toEqual(["user"]);
      const un = await w.gjc(["plugin", "uninstall", "alpha", "--user", "--json"]);
      expect([un.exitCode, errorOf(un).code]).toEqual([3, "registry_corrupt"]);
      expect(snapshotTree(w.root)).toEqual(before);
      expect(existsSync(entry.pluginRoot)).toBe(true);
    }
  });

  test("a registry.json far larger than gjc writes is refused without being read into memory", async () => {
    const w = (world = makeWorld());
    await installed(w);
    truncateSync(join(w.user, "registry.json"), 8 * 1024 * 1024 * 1024); // sparse: 8 GiB, no disk
    const list = await w.gjc(["plugin", "list", "--json"]);
    expect(list.json().problems[0].problem).toContain("larger than gjc ever writes");
    const un = await w.gjc(["plugin", "uninstall", "alpha", "--user", "--json"]);
    expect([un.exitCode, errorOf(un).code]).toEqual([3, "registry_corrupt"]);
  });

  test("registry.json missing beside its last good copy: fail closed, content kept, doctor --fix restores it", async () => {
    const w = (world = makeWorld());
    const entry = await installed(w);
    rmSync(join(w.user, "registry.json"));
    const beta = writeBundle(join(w.root, "src-beta"), "beta");
    const before = snapshotTree(w.root);
    const other = await w.gjc(["plugin", "install", beta, "--user", "--json"]);
    expect([other.exitCode, errorOf(other).code]).toEqual([3, "registry_corrupt"]);
    expect(snapshotTree(w.root)).toEqual(before);
    expect(readdirSync(w.user)).toContain(entry.dir);
    const list = await w.gjc(["plugin", "list", "--json"]);
    expect(list.json().problems.map((c: any) => c.scope)).toEqual(["user"]);
    const session = await w.gjc(["plugin", "session", "--json"]);
    expect(session.json().bundles).toEqual([]);
    const fix = await w.gjc(["plugin", "doctor", "--fix", "--json"]);
    expect(fix.exitCode).toBe(0);
    expect(registry(w).plugins.map((p: any) => p.name)).toEqual(["alpha"]);
    const verify = await w.gjc(["plugin", "verify", "--json"]);
    expect(verify.exitCode).toBe(0);
  });
});
