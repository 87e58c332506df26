/**
 * Issue #12, class 1: a project scope reached through a link (.gjc or .gjc/gjc-plugins) is
 * refused and nothing is written anywhere; inside the C2 data directory nothing is followed
 * either; the user's own root may sit behind links (documented in src/store/scope-path.ts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let world: World | undefined;
afterEach(() => world?.cleanup());
const errorOf = (r: { stdout: string }) => JSON.parse(r.stdout).error as { code: string; message: string };

describe("scope paths are real directories", () => {
  for (const linked of [".gjc", ".gjc/gjc-plugins"]) {
    test(`a project whose ${linked} is a link: install, uninstall and doctor --fix are refused with nothing written; list and session load nothing from it`, async () => {
      const w = (world = makeWorld());
      const outside = join(w.root, "outside");
      mkdirSync(outside);
      if (linked === ".gjc") symlinkSync(outside, join(w.project, ".gjc"));
      else {
        mkdirSync(join(w.project, ".gjc"));
        symlinkSync(outside, join(w.project, ".gjc", "gjc-plugins"));
      }
      const src = writeBundle(join(w.root, "src"), "alpha");
      const before = snapshotTree(w.root);
      for (const args of [["plugin", "install", src, "--project"], ["plugin", "uninstall", "alpha", "--project"], ["plugin", "enable", "alpha", "--project"]]) {
        const r = await w.gjc([...args, "--json"]);
        expect([args[1], r.exitCode, errorOf(r).code]).toEqual([args[1], 3, "unsafe_scope_path"]);
        expect(snapshotTree(w.root)).toEqual(before);
      }
      // doctor reports the link and --fix leaves it (and whatever it points at) alone.
      const doctor = await w.gjc(["plugin", "doctor", "--fix", "--json"]);
      expect(doctor.json().findings.filter((f: any) => f.kind === "unsafe_scope_path").map((f: any) => [f.scope, f.fixable])).toEqual([["project", false]]);
      expect(snapshotTree(w.root)).toEqual(before);
      const install = await w.gjc(["plugin", "install", src, "--project", "--json"]);
      expect(errorOf(install).message).toContain("symbolic link");
      expect(snapshotTree(outside)).toEqual({});
      const list = await w.gjc(["plugin", "list", "--json"]);
      expect(list.json().problems.map((c: any) => [c.family, c.scope])).toEqual([["gjc", "project"]]);
      const session = await w.gjc(["plugin", "session", "--json"]);
      expect(session.json().bundles).toEqual([]);
      expect(snapshotTree(w.root)).toEqual(before);
    });
  }

  test("the user scope root behind a dotfile-manager link works as before", async () => {
    const w = (world = makeWorld());
    const real = join(w.root, "dotfiles", "gjc");
    mkdirSync(real, { recursive: true });
    mkdirSync(join(w.home, ".gjc"), { recursive: true });
    const linkedRoot = join(w.home, ".gjc", "linked-root");
    symlinkSync(real, linkedRoot);
    const r = await w.gjc(["plugin", "install", writeBundle(join(w.root, "src"), "alpha"), "--user", "--json"], { env: { GJC_USER_DIR: linkedRoot } });
    expect(r.exitCode).toBe(0);
    expect(existsSync(join(realpathSync(real), "registry.json"))).toBe(true);
  });

  for (const inside of ["plugins", "plugins/.data"]) {
    test(`C2: ${inside} inside the data directory as a link refuses install with nothing written outside`, async () => {
      const w = (world = makeWorld());
      const data = w.env.GJC_C2_DATA_DIR;
      const outside = join(w.root, "outside");
      mkdirSync(outside);
      if (inside === "plugins") {
        mkdirSync(data, { recursive: true });
        symlinkSync(outside, join(data, "plugins"));
      } else {
        mkdirSync(join(data, "plugins"), { recursive: true });
        symlinkSync(outside, join(data, "plugins", ".data"));
      }
      const b = writeRuntimeBundle(join(w.root, "c2src"), { name: "c2-linked" });
      const before = snapshotTree(w.root);
      const r = await w.gjc(["plugin", "install", b.dir, "--user", "--json"]);
      expect(r.exitCode).toBe(3);
      expect(errorOf(r).code).toBe("unsafe_scope_path");
      expect(snapshotTree(w.root)).toEqual(before);
    });
  }
});
