/**
 * The content cache: every successful install stores the judged content under its integrity
 * (0700, atomic); cache list / verify (re-hash, exit 3 on damage) / prune (keeps what a lock,
 * a retained generation or an installed bundle on this machine names).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createContext } from "../../src/core/context.ts";
import { cacheRoot } from "../../src/store/set-paths.ts";
import { runCli } from "../helpers/cli.ts";
import { writeBundle } from "./gjc-install-fixture.ts";
import { fileHashes, integrityOfDir, makeSetWorld, registry, type SetWorld } from "./sets-fixture.ts";

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

describe("content cache", () => {
  test("GJC_CACHE_DIR wins over XDG_CACHE_HOME, which wins over ~/.cache/gjc", () => {
    const at = (env: Record<string, string>) => cacheRoot(createContext({ env: { HOME: "/h", ...env }, cwd: "/w" }));
    expect(at({})).toBe("/h/.cache/gjc");
    expect(at({ XDG_CACHE_HOME: "/x" })).toBe("/x/gjc");
    expect(at({ XDG_CACHE_HOME: "/x", GJC_CACHE_DIR: "rel" })).toBe("/w/rel");
  });

  test("an install stores the judged content under its integrity, private to the user; list and verify see it", async () => {
    const w = world();
    const src = writeBundle(join(w.root, "src", "a"), "aa");
    expect((await w.gjc(["plugin", "install", src, "--user"])).exitCode).toBe(0);
    const installed = registry(w.user).plugins[0].pluginRoot;
    const integrity = integrityOfDir(installed);
    const entry = join(w.cache, "content", integrity.slice(7));
    expect(fileHashes(join(entry, "files"))).toEqual(fileHashes(installed));
    expect(statSync(w.cache).mode & 0o777).toBe(0o700);
    expect(statSync(join(w.cache, "content")).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(w.cache, "content"))).toEqual([integrity.slice(7)]); // no temp leftovers

    const list = await w.gjc(["plugin", "cache", "list", "--json"]);
    expect(list.json()).toMatchObject({
      schema: "gjc/cache-list@1",
      entries: [{ integrity, name: "aa", family: "gjc", version: "1.0.0", files: 2 }],
      broken: [],
    });
    const ok = await w.gjc(["plugin", "cache", "verify", "--json"]);
    expect({ exit: ok.exitCode, ok: ok.json().ok, checked: ok.json().checked }).toEqual({
      exit: 0,
      ok: true,
      checked: 1,
    });

    // A refused or dry-run install stores nothing new.
    const other = writeBundle(join(w.root, "src", "b"), "bb");
    expect((await w.gjc(["plugin", "install", other, "--user", "--dry-run"])).exitCode).toBe(0);
    expect(readdirSync(join(w.cache, "content"))).toHaveLength(1);

    appendFileSync(join(entry, "files", "tools", "aa_tool.ts"), "tampered");
    const bad = await w.gjc(["plugin", "cache", "verify", "--json"]);
    expect(bad.exitCode).toBe(3);
    expect(bad.json().damaged).toEqual([
      { integrity, name: "aa", reasons: [{ code: "cache_damaged", message: "changed: tools/aa_tool.ts" }] },
    ]);
    expect((await w.gjc(["plugin", "cache", "verify"])).stdout).toContain("no longer match their digest");
    // A malformed entry.json is damaged too, with the field named (its schema: src/sets/disk-schemas.ts).
    const meta = JSON.parse(readFileSync(join(entry, "entry.json"), "utf8"));
    writeFileSync(
      join(entry, "entry.json"),
      JSON.stringify({ ...meta, files: [{ ...meta.files[0], sha256: 7 }, ...meta.files.slice(1)] }),
    );
    const malformed = await w.gjc(["plugin", "cache", "verify", "--json"]);
    expect({ exit: malformed.exitCode, damaged: malformed.json().damaged }).toEqual({
      exit: 3,
      damaged: [
        {
          integrity,
          reasons: [
            {
              code: "cache_damaged",
              message: "entry.json: files[0].sha256 must be a string, not an integer (at /files/0/sha256)",
            },
          ],
        },
      ],
    });
  });

  test("prune keeps what a lock, a generation or an installed bundle names, and removes the rest", async () => {
    const w = world();
    const a = writeBundle(join(w.root, "src", "a"), "aa");
    expect((await w.gjc(["plugin", "install", a, "--project"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
    // Another user's home sharing the cache dir: nothing on this user's side names its content.
    const stranger = world();
    const b = writeBundle(join(stranger.root, "src", "b"), "bb");
    expect(
      (
        await runCli(["plugin", "install", b, "--user"], {
          cwd: stranger.project,
          env: { ...stranger.env, GJC_CACHE_DIR: w.cache },
        })
      ).exitCode,
    ).toBe(0);
    const bIntegrity = integrityOfDir(registry(stranger.user).plugins[0].pluginRoot);
    expect(readdirSync(join(w.cache, "content")).sort()).toHaveLength(2);

    // Run from elsewhere: the project is known to the cache, so its lock still counts.
    const dry = await w.gjc(["plugin", "cache", "prune", "--dry-run", "--json"], { cwd: w.home });
    expect(dry.json()).toMatchObject({ kept: 1, removed: [{ integrity: bIntegrity, name: "bb" }], dryRun: true });
    expect(readdirSync(join(w.cache, "content"))).toHaveLength(2);
    const r = await w.gjc(["plugin", "cache", "prune", "--json"], { cwd: w.home });
    expect(r.json()).toMatchObject({ kept: 1, removed: [{ integrity: bIntegrity }] });
    expect(existsSync(join(w.cache, "content", bIntegrity.slice(7)))).toBe(false);

    // Uninstalled, but the lock and the history still name it: kept.
    expect((await w.gjc(["plugin", "uninstall", "aa", "--project"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "cache", "prune", "--json"])).json().kept).toBe(1);
  });
});
