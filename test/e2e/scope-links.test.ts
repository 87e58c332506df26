/**
 * Issue #12, class 1: a project scope reached through a link (.gjc or .gjc/gjc-plugins) is
 * refused and nothing is written anywhere; inside the C2 data directory nothing is followed
 * either; the user's own root may sit behind links (documented in src/store/scope-path.ts).
 * Beyond links: a scope directory another user owns, or every user may write, is refused the
 * same way (whoever may write it can swap a verified content directory for their own), and no
 * directory gjc makes is writable by others, whatever the umask.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  symlinkSync,
} from "node:fs";
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
      for (const args of [
        ["plugin", "install", src, "--project"],
        ["plugin", "uninstall", "alpha", "--project"],
        ["plugin", "enable", "alpha", "--project"],
      ]) {
        const r = await w.gjc([...args, "--json"]);
        expect([args[1], r.exitCode, errorOf(r).code]).toEqual([args[1], 3, "unsafe_scope_path"]);
        expect(snapshotTree(w.root)).toEqual(before);
      }
      // doctor reports the link and --fix leaves it (and whatever it points at) alone.
      const doctor = await w.gjc(["plugin", "doctor", "--fix", "--json"]);
      expect(
        doctor
          .json()
          .findings.filter((f: any) => f.kind === "unsafe_scope_path")
          .map((f: any) => [f.scope, f.fixable]),
      ).toEqual([["project", false]]);
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
    const r = await w.gjc(["plugin", "install", writeBundle(join(w.root, "src"), "alpha"), "--user", "--json"], {
      env: { GJC_USER_DIR: linkedRoot },
    });
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

  /** Every file and directory under `dir` (not `dir` itself) that others may write, as `path mode`. */
  function othersMayWrite(dir: string): string[] {
    const found: string[] = [];
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) continue;
      if ((st.mode & 0o022) !== 0) found.push(`${p} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) found.push(...othersMayWrite(p));
    }
    return found;
  }

  test("under umask 000, nothing gjc makes in either family's stores, the project's .gjc or the state key is writable by others", async () => {
    const w = (world = makeWorld());
    const umask = ["sh", "-c", 'umask 000 && exec "$0" "$@"'];
    const gjc = (args: string[]) => w.gjc([...args, "--json"], { wrap: umask });
    expect((await gjc(["plugin", "install", writeBundle(join(w.root, "src-p"), "alpha"), "--project"])).exitCode).toBe(
      0,
    );
    expect((await gjc(["plugin", "install", writeBundle(join(w.root, "src-u"), "beta"), "--user"])).exitCode).toBe(0);
    expect(
      (await gjc(["plugin", "install", writeRuntimeBundle(join(w.root, "c2src"), { name: "gamma" }).dir, "--user"]))
        .exitCode,
    ).toBe(0);
    expect((await gjc(["plugin", "trust", "gamma"])).exitCode).toBe(0);
    expect((await gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
    expect((await gjc(["plugin", "uninstall", "alpha", "--project"])).exitCode).toBe(0);
    expect((await gjc(["plugin", "sync", "--project"])).exitCode).toBe(0);
    expect(othersMayWrite(w.home)).toEqual([]);
    expect(othersMayWrite(w.project)).toEqual([]);
  });

  const refusedEverywhere = async (w: World, expectProblem: string) => {
    const src = writeBundle(join(w.root, "src"), "alpha");
    const before = snapshotTree(w.root);
    const r = await w.gjc(["plugin", "install", src, "--project", "--json"]);
    expect([r.exitCode, errorOf(r).code]).toEqual([3, "unsafe_scope_path"]);
    expect(errorOf(r).message).toContain(expectProblem);
    expect((JSON.parse(r.stdout).error as { hint: string }).hint).toContain("chmod o-w");
    expect(snapshotTree(w.root)).toEqual(before);
    const list = await w.gjc(["plugin", "list", "--json"]);
    expect(list.json().problems.map((c: any) => [c.family, c.scope])).toEqual([["gjc", "project"]]);
    expect(list.json().problems[0].problem).toContain(expectProblem);
    expect((await w.gjc(["plugin", "session", "--json"])).json().bundles).toEqual([]);
    const doctor = await w.gjc(["plugin", "doctor", "--fix", "--json"]);
    expect(
      doctor
        .json()
        .findings.filter((f: any) => f.kind === "unsafe_scope_path")
        .map((f: any) => [f.scope, f.fixable]),
    ).toEqual([["project", false]]);
    expect(snapshotTree(w.root)).toEqual(before);
  };

  test("a project .gjc/gjc-plugins that every user may write is refused with nothing written; list, session and doctor load nothing from it", async () => {
    const w = (world = makeWorld());
    mkdirSync(w.projectScope, { recursive: true });
    chmodSync(w.projectScope, 0o777);
    await refusedEverywhere(w, "is writable by every user (mode 777)");
  });

  const root = typeof process.getuid === "function" && process.getuid() === 0;
  test.skipIf(!root)(
    "a project .gjc that another user owns (made here by root for uid 65534) is refused with nothing written; list, session and doctor load nothing from it",
    async () => {
      const w = (world = makeWorld());
      mkdirSync(join(w.project, ".gjc"));
      chownSync(join(w.project, ".gjc"), 65534, 65534);
      await refusedEverywhere(w, "belongs to another user (uid 65534)");
    },
  );

  test("C2: a plugins directory inside the data directory that every user may write refuses install with nothing written", async () => {
    const w = (world = makeWorld());
    const plugins = join(w.env.GJC_C2_DATA_DIR, "plugins");
    mkdirSync(plugins, { recursive: true });
    chmodSync(plugins, 0o777);
    const b = writeRuntimeBundle(join(w.root, "c2src"), { name: "c2-open" });
    const before = snapshotTree(w.root);
    const r = await w.gjc(["plugin", "install", b.dir, "--user", "--json"]);
    expect([r.exitCode, errorOf(r).code]).toEqual([3, "unsafe_scope_path"]);
    expect(errorOf(r).message).toContain("writable by every user");
    expect(snapshotTree(w.root)).toEqual(before);
  });
});
