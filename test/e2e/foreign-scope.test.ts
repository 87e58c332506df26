/**
 * Issue #12, class 2: installed state gjc did not write for this user is never trusted. A
 * project scope written under another user's key (what a clone that ships .gjc/gjc-plugins is)
 * is shown as foreign by list, session and doctor, and never loaded, upgraded, repaired or
 * deleted; the same user's copy of a project keeps working; an unsigned (older) scope is
 * adopted only by an explicit doctor --fix --adopt.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { snapshotTree } from "../helpers/tmp.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let world: World | undefined;
afterEach(() => world?.cleanup());
const errorOf = (r: { stdout: string }) =>
  JSON.parse(r.stdout).error as { code: string; message: string; hint: string };

/** A project scope installed by the repository's author (another HOME, so another key). */
async function shippedProject(w: World) {
  const authorHome = join(w.root, "author-home");
  mkdirSync(authorHome, { recursive: true });
  const src = writeBundle(join(w.root, "src"), "alpha");
  const r = await w.gjc(["plugin", "install", src, "--project", "--json"], { env: { HOME: authorHome } });
  expect(r.exitCode).toBe(0);
  // Debris a sweep would remove in a scope of ours.
  mkdirSync(join(w.projectScope, ".staging-alpha-1-0123456789ab"));
  return { authorHome, src };
}

describe("foreign scopes", () => {
  test("a project scope signed with another user's key: shown as foreign, nothing loaded, changed or deleted", async () => {
    const w = (world = makeWorld());
    const { src } = await shippedProject(w);
    const before = snapshotTree(w.project);

    const list = await w.gjc(["plugin", "list", "--json"]);
    expect(list.json().problems).toMatchObject([{ scope: "project", foreign: true }]);
    expect(list.json().bundles).toEqual([]);
    const human = await w.gjc(["plugin", "list"]);
    expect(human.stdout).toContain("FOREIGN");

    const session = await w.gjc(["plugin", "session", "--json"]);
    expect(session.json().bundles).toEqual([]);
    expect(session.json().diagnostics.map((d: any) => d.code)).toContain("foreign_scope");

    for (const args of [
      ["plugin", "uninstall", "alpha", "--project"],
      ["plugin", "upgrade", "alpha", "--project"],
      ["plugin", "disable", "alpha", "--project"],
      ["plugin", "install", src, "--project", "--force"],
    ]) {
      const r = await w.gjc([...args, "--json"]);
      expect([args[1], r.exitCode, errorOf(r).code]).toEqual([args[1], 3, "foreign_scope"]);
      expect(errorOf(r).hint).toContain("delete .gjc/gjc-plugins");
    }
    const doctor = await w.gjc(["plugin", "doctor", "--fix", "--json"]);
    expect(
      doctor
        .json()
        .findings.filter((f: any) => f.scope === "project")
        .map((f: any) => [f.kind, f.fixed ?? false]),
    ).toEqual([["foreign_scope", false]]);
    // --adopt is refused for nothing here either way: without it nothing changed.
    expect(snapshotTree(w.project)).toEqual(before);
  });

  test("the same user's copy of a project keeps working (the signature covers content, not the path)", async () => {
    const w = (world = makeWorld());
    const r = await w.gjc(["plugin", "install", writeBundle(join(w.root, "src"), "alpha"), "--project", "--json"]);
    expect(r.exitCode).toBe(0);
    const copy = join(w.root, "project-copy");
    cpSync(w.project, copy, { recursive: true });
    const list = await w.gjc(["plugin", "list", "--json"], { cwd: copy });
    expect(list.json().problems).toEqual([]);
    expect(list.json().bundles.map((b: any) => b.name)).toEqual(["alpha"]);
  });

  test("the signature covers the registry's bytes as written: the same content and MAC re-indented is foreign, and --adopt signs it again", async () => {
    const w = (world = makeWorld());
    const r = await w.gjc(["plugin", "install", writeBundle(join(w.root, "src"), "alpha"), "--user", "--json"]);
    expect(r.exitCode).toBe(0);
    const path = join(w.user, "registry.json");
    const written = readFileSync(path, "utf8");
    // Exactly the layout the MAC check expects: the entries' JSON between a fixed head and tail.
    expect(written).toMatch(/^\{"version":1,"scope":"user","plugins":\[.*\],"mac":"hmac-sha256:[0-9a-f]{64}"\}\n$/s);
    const doc = JSON.parse(written);
    writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
    const list = await w.gjc(["plugin", "list", "--json"]);
    expect(list.json().problems).toMatchObject([{ scope: "user", foreign: true }]);
    expect(list.json().problems[0].problem).toContain("laid out");
    const session = await w.gjc(["plugin", "session", "--json"]);
    expect(session.json().bundles).toEqual([]);
    expect(session.json().diagnostics.map((d: any) => d.code)).toContain("foreign_scope");
    const adopt = await w.gjc(["plugin", "doctor", "--fix", "--adopt", "--json"]);
    expect(adopt.json().findings.find((f: any) => f.kind === "foreign_scope").fixed).toBe(true);
    // Signed again as written: the same bytes gjc writes for that content, with the same MAC.
    expect(readFileSync(path, "utf8")).toBe(written);
    expect((await w.gjc(["plugin", "list", "--json"])).json().bundles.map((b: any) => b.name)).toEqual(["alpha"]);
  });

  test("an unsigned project registry (an older gjc, or hand-made) is foreign until doctor --fix --adopt signs it; a forged signature is foreign in either scope; an unsigned user scope (an older gjc's) is read and signed on its next write", async () => {
    const w = (world = makeWorld());
    const r = await w.gjc(["plugin", "install", writeBundle(join(w.root, "src"), "alpha"), "--project", "--json"]);
    expect(r.exitCode).toBe(0);
    const path = join(w.projectScope, "registry.json");
    const { mac, ...unsigned } = JSON.parse(readFileSync(path, "utf8"));
    expect(mac).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    writeFileSync(path, JSON.stringify({ ...unsigned, mac: `hmac-sha256:${"0".repeat(64)}` }));
    expect((await w.gjc(["plugin", "list", "--json"])).json().problems).toMatchObject([
      { scope: "project", foreign: true },
    ]);
    // What an older gjc wrote: registry.json and its last good copy, both unsigned.
    writeFileSync(path, JSON.stringify(unsigned, null, 2));
    writeFileSync(join(w.projectScope, "registry.last-good.json"), JSON.stringify(unsigned, null, 2));
    expect((await w.gjc(["plugin", "list", "--json"])).json().problems).toMatchObject([
      { scope: "project", foreign: true },
    ]);
    const plain = await w.gjc(["plugin", "doctor", "--fix", "--json"]);
    expect(plain.json().findings.find((f: any) => f.kind === "foreign_scope").fixed).toBeUndefined();
    const adopt = await w.gjc(["plugin", "doctor", "--fix", "--adopt", "--json"]);
    expect(adopt.json().findings.find((f: any) => f.kind === "foreign_scope").fixed).toBe(true);
    const list = await w.gjc(["plugin", "list", "--json"]);
    expect(list.json().problems).toEqual([]);
    expect(list.json().bundles.map((b: any) => b.name)).toEqual(["alpha"]);
    expect(existsSync(join(w.home, ".gjc", "state.key"))).toBe(true);

    // The user scope: unsigned is an older gjc's and works; a forged signature does not.
    const u = await w.gjc(["plugin", "install", writeBundle(join(w.root, "src-u"), "beta"), "--user", "--json"]);
    expect(u.exitCode).toBe(0);
    const userPath = join(w.user, "registry.json");
    const { mac: _m, ...userUnsigned } = JSON.parse(readFileSync(userPath, "utf8"));
    writeFileSync(userPath, JSON.stringify(userUnsigned, null, 2));
    expect((await w.gjc(["plugin", "list", "--json"])).json().problems).toEqual([]);
    expect((await w.gjc(["plugin", "disable", "beta", "--user", "--json"])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(userPath, "utf8")).mac).toMatch(/^hmac-sha256:/);
    writeFileSync(userPath, JSON.stringify({ ...userUnsigned, mac: `hmac-sha256:${"1".repeat(64)}` }));
    expect((await w.gjc(["plugin", "list", "--json"])).json().problems).toMatchObject([
      { scope: "user", foreign: true },
    ]);
  });
});
