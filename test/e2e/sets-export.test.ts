/**
 * Set archives: lock --export writes the same bytes on every run; sync --from installs the set
 * on a fresh machine with the network really absent (unshare -n), byte for byte; a damaged,
 * incomplete or hostile archive is refused with nothing written.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { integrityOf } from "../../src/store/integrity.ts";
import { join } from "node:path";
import { tar } from "../helpers/tar.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { writeBundle } from "./gjc-install-fixture.ts";
import { errorOf, fileHashes, makeSetWorld, netlessCli, registry, type SetWorld } from "./sets-fixture.ts";

let worlds: SetWorld[] = [];
afterEach(() => {
  for (const w of worlds) w.cleanup();
  worlds = [];
});
const world = () => {
  const w = makeSetWorld();
  worlds.push(w);
  return w;
};
const installedFiles = (scopeRoot: string) =>
  Object.fromEntries(registry(scopeRoot).plugins.map((p) => [p.name, fileHashes(p.pluginRoot)]));
const sha = (p: string) => new Bun.CryptoHasher("sha256").update(readFileSync(p)).digest("hex");

async function exportedSet(a: SetWorld): Promise<string> {
  const repo = a.repo("gitty", { tools: ["g_a", "g_b"] });
  const local = writeBundle(join(a.root, "src", "loc"), "loc", { files: { "tools/notes.md": "notes" } });
  expect((await a.gjc(["plugin", "install", `${repo.url}#main`, "--project"])).exitCode).toBe(0);
  expect((await a.gjc(["plugin", "install", local, "--project"])).exitCode).toBe(0);
  expect((await a.gjc(["plugin", "disable", "loc", "--project"])).exitCode).toBe(0);
  expect((await a.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
  const out = join(a.root, "team.tgz");
  const r = await a.gjc(["plugin", "lock", "--project", "--export", out, "--json"]);
  expect(r.exitCode).toBe(0);
  expect(r.json()).toMatchObject({ schema: "gjc/lock@1", ok: true, bundles: 2, path: out, sha256: sha(out) });
  return out;
}

describe("set archives", () => {
  test("export is deterministic, and sync --from installs the set byte for byte with no network at all", async () => {
    const a = world();
    const out = await exportedSet(a);
    const first = sha(out);
    // Again, after the cache is gone (the content comes from the installed bundles): same bytes.
    rmSync(a.cache, { recursive: true, force: true });
    expect((await a.gjc(["plugin", "lock", "--project", "--export", out])).exitCode).toBe(0);
    expect(sha(out)).toBe(first);

    const b = world(); // fresh HOME, fresh project, empty cache; the sources are gone too
    rmSync(join(a.root, "repos"), { recursive: true, force: true });
    rmSync(join(a.root, "src"), { recursive: true, force: true });
    const r = netlessCli(b, ["plugin", "sync", "--project", "--from", out, "--json"]);
    expect({ status: r.status, err: r.stderr }).toMatchObject({ status: 0 });
    expect(JSON.parse(r.stdout).items.map((i: { name: string; from: string }) => `${i.name}:${i.from}`)).toEqual([
      "gitty:set",
      "loc:set",
    ]);
    expect(installedFiles(b.projectScope)).toEqual(installedFiles(a.projectScope));
    expect(registry(b.projectScope).plugins.map((p) => [p.name, p.enabled])).toEqual([
      ["gitty", true],
      ["loc", false],
    ]);
    expect(readFileSync(b.lock, "utf8")).toBe(readFileSync(a.lock, "utf8"));
    expect((await b.gjc(["plugin", "verify"])).exitCode).toBe(0);
    expect((await b.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
  });

  test("a flipped byte, a missing entry or a hostile entry refuses the whole set (exit 3) with nothing written", async () => {
    const a = world();
    const out = await exportedSet(a);
    const b = world();
    const before = snapshotTree(b.project);

    const flipped = join(a.root, "flipped.tgz");
    const bytes = readFileSync(out);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(flipped, bytes);
    const r1 = await b.gjc(["plugin", "sync", "--project", "--from", flipped, "--json"]);
    expect({ exit: r1.exitCode, code: errorOf(r1).code }).toEqual({ exit: 3, code: "set_integrity" });

    // The same set without one bundle's content.
    const unpacked = join(a.root, "unpacked");
    mkdirSync(unpacked);
    execFileSync("tar", ["xzf", out, "-C", unpacked]);
    const lock = JSON.parse(readFileSync(join(unpacked, "plugins.lock.json"), "utf8"));
    const gitty = lock.bundles.find((e: { name: string }) => e.name === "gitty");
    rmSync(join(unpacked, "content", gitty.integrity.slice(7)), { recursive: true });
    const partial = join(a.root, "partial.tgz");
    execFileSync("tar", ["czf", partial, "-C", unpacked, ...readdirSync(unpacked)]);
    const r2 = await b.gjc(["plugin", "sync", "--project", "--from", partial, "--json"]);
    expect({ exit: r2.exitCode, code: errorOf(r2).code }).toEqual({ exit: 3, code: "set_integrity" });
    expect(errorOf(r2).message).toContain("gitty");

    // An edited file inside a complete set.
    const loc = lock.bundles.find((e: { name: string }) => e.name === "loc");
    writeFileSync(join(unpacked, "content", loc.integrity.slice(7), "files", "tools", "notes.md"), "edited");
    const edited = join(a.root, "edited.tgz");
    execFileSync("tar", ["czf", edited, "-C", unpacked, ...readdirSync(unpacked)]);
    const r3 = await b.gjc(["plugin", "sync", "--project", "--from", edited, "--json"]);
    expect({ exit: r3.exitCode, code: errorOf(r3).code }).toEqual({ exit: 3, code: "set_integrity" });

    // A file list that matches its digest but names a path outside the set (whoever wrote the
    // digest wrote the list): refused before any file is touched.
    const victim = join(a.root, "victim.txt");
    writeFileSync(victim, "keep");
    chmodSync(victim, 0o600);
    const evil = join(a.root, "evil");
    mkdirSync(evil);
    execFileSync("tar", ["xzf", out, "-C", evil]);
    const evilLock = JSON.parse(readFileSync(join(evil, "plugins.lock.json"), "utf8"));
    const target = evilLock.bundles.find((e: { name: string }) => e.name === "loc");
    const entryDir = join(evil, "content", target.integrity.slice(7));
    const meta = JSON.parse(readFileSync(join(entryDir, "entry.json"), "utf8"));
    meta.files.push({ path: `${"../".repeat(40)}${victim.slice(1)}`, mode: 0o777, sha256: "0".repeat(64), bytes: 4 }); // reaches the victim from any depth
    meta.integrity = integrityOf(meta.files);
    writeFileSync(join(entryDir, "entry.json"), JSON.stringify(meta));
    target.integrity = meta.integrity;
    writeFileSync(join(evil, "plugins.lock.json"), JSON.stringify(evilLock));
    renameSync(entryDir, join(evil, "content", meta.integrity.slice(7)));
    const evilTgz = join(a.root, "evil.tgz");
    execFileSync("tar", ["czf", evilTgz, "-C", evil, ...readdirSync(evil)]);
    const r5 = await b.gjc(["plugin", "sync", "--project", "--from", evilTgz, "--json"]);
    expect({ exit: r5.exitCode, code: errorOf(r5).code }).toEqual({ exit: 3, code: "set_integrity" });
    expect(errorOf(r5).message).toMatch(/malformed entry\.json for loc \(the path .* \(at \/files\/\d+\/path\)\)/);
    expect(statSync(victim).mode & 0o777).toBe(0o600);

    // A hostile entry is judged by the tarball rules.
    const hostile = join(a.root, "hostile.tgz");
    writeFileSync(
      hostile,
      Bun.gzipSync(
        tar([
          { name: "plugins.lock.json", data: readFileSync(a.lock) },
          { name: "../escape.txt", data: "x" },
        ]) as Uint8Array<ArrayBuffer>,
      ),
    );
    const r4 = await b.gjc(["plugin", "sync", "--project", "--from", hostile, "--json"]);
    expect({ exit: r4.exitCode, code: errorOf(r4).code }).toEqual({ exit: 3, code: "security_policy" });
    expect(snapshotTree(b.project)).toEqual(before);
  });

  test("cache prune keeps what a pending journal names: a sync --from killed after its journal is finished offline from the cache alone", async () => {
    const a = world();
    const out = await exportedSet(a);
    const b = world(); // a fresh machine: no lock, no history, nothing installed, an empty cache
    // Someone else's content in the same cache, which nothing of b names: prune removes it.
    const stranger = world();
    const other = writeBundle(join(stranger.root, "src", "other"), "other");
    expect(
      (await stranger.gjc(["plugin", "install", other, "--user"], { env: { GJC_CACHE_DIR: b.cache } })).exitCode,
    ).toBe(0);

    const crash = await b.gjc(["plugin", "sync", "--project", "--from", out], {
      env: { GJC_TEST_CRASH_AT: "sync:journaled" },
    });
    expect(crash.exitCode).toBe(137);
    // Only the journal names the set's content now (the lock is written at the end of a sync --from).
    expect(existsSync(b.lock)).toBe(false);
    const setEntries = JSON.parse(readFileSync(a.lock, "utf8"))
      .bundles.map((e: { integrity: string }) => e.integrity)
      .sort();
    const pruned = await b.gjc(["plugin", "cache", "prune", "--json"]);
    expect(pruned.exitCode).toBe(0);
    expect(pruned.json()).toMatchObject({ kept: 2, removed: [{ name: "other" }], dryRun: false });
    expect(
      readdirSync(join(b.cache, "content"))
        .filter((n) => !n.startsWith("."))
        .sort(),
    ).toEqual(setEntries.map((i: string) => i.slice(7)));

    // Finished with the archive and the sources gone and no network: from the cache alone.
    rmSync(out);
    rmSync(join(a.root, "repos"), { recursive: true, force: true });
    rmSync(join(a.root, "src"), { recursive: true, force: true });
    const finish = netlessCli(b, ["plugin", "lock", "--project"]);
    expect({ status: finish.status, err: finish.stderr }).toMatchObject({
      status: 0,
      err: expect.stringContaining("interrupted"),
    });
    expect(installedFiles(b.projectScope)).toEqual(installedFiles(a.projectScope));
    expect(registry(b.projectScope).plugins.map((p) => [p.name, p.enabled])).toEqual([
      ["gitty", true],
      ["loc", false],
    ]);
    expect(readFileSync(b.lock, "utf8")).toBe(readFileSync(a.lock, "utf8"));
    expect((await b.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
    expect((await b.gjc(["plugin", "verify"])).exitCode).toBe(0);
  });

  test("export refuses (set_incomplete) when an entry's content is neither cached nor installed as locked", async () => {
    const a = world();
    await exportedSet(a);
    const b = world();
    mkdirSync(join(b.project, ".gjc"), { recursive: true });
    writeFileSync(b.lock, readFileSync(a.lock));
    const r = await b.gjc(["plugin", "lock", "--project", "--export", join(b.root, "x.tgz"), "--json"]);
    expect({ exit: r.exitCode, code: errorOf(r).code }).toEqual({ exit: 1, code: "set_incomplete" });
  });
});
