/**
 * The C2 family through the shared store verbs: concurrent installs, reinstall repairs, a name
 * from another source, command namespaces, the one name resolver across families and scopes,
 * the same answer to the same mistake, and doctor on the C2 store.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxPerTest, type Sandbox } from "../helpers/sandbox.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { runtimeBundle, skillsBundle } from "../unit/c2store/_bundles.ts";
import { writeBundle } from "./gjc-install-fixture.ts";

const box = sandboxPerTest("gjc-c2store-");

const errorOf = (r: { stderr: string }) =>
  JSON.parse(r.stderr.split("\n").find((l) => l.startsWith('{"error"'))!).error;
/** Runs a command that must be refused with `code`/`exit` and proves nothing changed anywhere. */
async function refused(s: Sandbox, args: string[], code: string, exit: number) {
  const before = snapshotTree(s.root);
  const r = await s.gjc([...args, "--json"]);
  expect({ args, exit: r.exitCode, code: errorOf(r).code }).toEqual({ args, exit, code });
  expect(snapshotTree(s.root)).toEqual(before);
  return errorOf(r);
}
const c2Leftovers = (s: Sandbox) =>
  readdirSync(join(s.c2, "plugins")).filter((n) => n.startsWith(".") && n !== ".data");

describe("C2 installs at once (real processes)", () => {
  test("8 processes installing 8 different bundles: all 8 land, no leftovers, no lock", async () => {
    const s = box();
    const dirs = Array.from({ length: 8 }, (_, i) =>
      s.write(`src/b${i}`, i % 2 ? runtimeBundle(`b${i}`) : skillsBundle(`b${i}`)),
    );
    const results = await Promise.all(dirs.map((d) => s.gjc(["plugin", "install", d, "--json"])));
    expect(results.map((r) => [r.exitCode, r.json().status])).toEqual(dirs.map(() => [0, "installed"]));
    const list = (await s.gjc(["plugin", "list", "--json"])).json();
    expect(list.bundles.map((b: { name: string }) => b.name)).toEqual(dirs.map((_, i) => `b${i}`));
    expect((await s.gjc(["plugin", "verify"])).exitCode).toBe(0);
    expect(c2Leftovers(s)).toEqual([]);
    expect(existsSync(join(s.c2, "c2.lock"))).toBe(false);
  });

  test("4 processes installing the same bundle: one installs, the others find it unchanged", async () => {
    const s = box();
    const dir = s.write("src/same", runtimeBundle("same"));
    const results = await Promise.all([0, 1, 2, 3].map(() => s.gjc(["plugin", "install", dir, "--json"])));
    expect(results.map((r) => r.exitCode)).toEqual([0, 0, 0, 0]);
    expect(results.map((r) => r.json().status).sort()).toEqual(["installed", "unchanged", "unchanged", "unchanged"]);
    expect(new Set(results.map((r) => r.json().c2.id)).size).toBe(1);
    expect(readdirSync(join(s.c2, "plugins")).filter((n) => !n.startsWith("."))).toEqual([results[0].json().c2.id]);
    expect(c2Leftovers(s)).toEqual([]);
  });
});

describe("reinstall and replacement", () => {
  test("reinstalling the same source repairs a drifted or quarantined bundle (no --force)", async () => {
    const s = box();
    const dir = s.write("src/demo", runtimeBundle("demo"));
    const id = (await s.gjc(["plugin", "install", dir, "--json"])).json().c2.id;
    const js = join(s.c2, "plugins", id, "bundle", "plugin.js");
    writeFileSync(js, "evil();\n");
    // Drift found by the reinstall itself.
    const repaired = await s.gjc(["plugin", "install", dir, "--json"]);
    expect([repaired.exitCode, repaired.json().status]).toEqual([0, "repaired"]);
    expect((await s.gjc(["plugin", "verify", "--json"])).json()).toMatchObject({
      ok: true,
      bundles: [{ ok: true, change: "none" }],
    });
    // Drift quarantined by verify first.
    writeFileSync(js, "evil();\n");
    const v = await s.gjc(["plugin", "verify", "demo", "--json"]);
    expect([v.exitCode, v.json().bundles[0].change, v.json().bundles[0].problems[0].kind]).toEqual([
      3,
      "quarantined",
      "changed",
    ]);
    expect((await s.gjc(["plugin", "install", dir, "--dry-run", "--json"])).json().status).toBe("would-repair");
    expect((await s.gjc(["plugin", "install", dir, "--json"])).json().status).toBe("repaired");
    expect((await s.gjc(["plugin", "list", "--json"])).json().bundles[0]).toMatchObject({
      quarantined: false,
      c2: { quarantine: null },
    });
    expect((await s.gjc(["plugin", "install", dir, "--json"])).json().status).toBe("unchanged");
  });

  test("the same name from another source is refused naming the installed source; --force replaces it without its trust", async () => {
    const s = box();
    const first = s.write("one/demo", runtimeBundle("demo"));
    const other = s.write("two/demo", runtimeBundle("demo", "1.1.0"));
    const a = (await s.gjc(["plugin", "install", first, "--json"])).json();
    expect((await s.gjc(["plugin", "trust", "demo"])).exitCode).toBe(0);
    const e = await refused(s, ["plugin", "install", other], "already_installed", 1);
    expect(e.message).toContain(first);
    expect(e.message).toContain(a.c2.id);
    const forced = await s.gjc(["plugin", "install", other, "--force", "--json"]);
    expect(forced.exitCode).toBe(0);
    const b = forced.json();
    expect(b).toMatchObject({
      status: "installed",
      version: "1.1.0",
      previousVersion: "1.0.0",
      c2: { trusted: false },
    });
    expect(b.c2.id).not.toBe(a.c2.id);
    expect(b.warnings.map((w: { code: string }) => w.code)).toContain("replaced_source");
    const rows = (await s.gjc(["plugin", "list", "--json"])).json().bundles;
    expect(rows.map((r: { c2: { id: string; trusted: boolean } }) => [r.c2.id, r.c2.trusted])).toEqual([
      [b.c2.id, false],
    ]);
    expect(existsSync(join(s.c2, "plugins", a.c2.id))).toBe(false);
    expect(existsSync(join(s.c2, "plugins", ".data", a.c2.id))).toBe(false);
  });

  test("a command namespace another installed bundle owns is refused with command_conflict", async () => {
    const s = box();
    const withCommand = (name: string, command: string) => {
      const tree = runtimeBundle(name);
      const manifest = tree["plugin.json"] as {
        extensions: { "dev.codetwo": { commands: { id: string; title: string }[]; ui: { command: string }[] } };
      };
      manifest.extensions["dev.codetwo"].commands = [{ id: command, title: "Run" }];
      manifest.extensions["dev.codetwo"].ui[0].command = command;
      return s.write(`src/${name}`, tree);
    };
    expect((await s.gjc(["plugin", "install", withCommand("alpha", "shared.run")])).exitCode).toBe(0);
    const e = await refused(s, ["plugin", "install", withCommand("beta", "shared.go")], "command_conflict", 1);
    expect(e.message).toContain("alpha");
    expect((await s.gjc(["plugin", "install", withCommand("gamma", "gamma.go")])).exitCode).toBe(0);
  });
});

describe("one name resolver, one answer to one mistake", () => {
  test("a name in two families or scopes is ambiguous_plugin (exit 2) naming the flag; the flags pick and filter", async () => {
    const s = box();
    const gjcDemo = writeBundle(join(s.root, "src", "gjc-demo"), "demo");
    expect((await s.gjc(["plugin", "install", gjcDemo, "--user"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "install", s.write("src/c2-demo", skillsBundle("demo"))])).exitCode).toBe(0);
    for (const verb of ["inspect", "uninstall", "disable", "verify"]) {
      const e = await refused(s, ["plugin", verb, "demo"], "ambiguous_plugin", 2);
      expect(e.hint).toContain("--family gjc");
      expect(e.hint).toContain("--family c2");
    }
    expect((await s.gjc(["plugin", "inspect", "demo", "--family", "c2", "--json"])).json()).toMatchObject({
      family: "c2",
      bundle: { name: "demo" },
    });
    expect((await s.gjc(["plugin", "inspect", "demo", "--user", "--family", "gjc", "--json"])).json()).toMatchObject({
      family: "gjc",
    });
    const fam = (args: string[]) =>
      s
        .gjc(["plugin", "list", ...args, "--json"])
        .then((r) => r.json().bundles.map((b: { family: string; scope: string }) => `${b.family}:${b.scope}`));
    expect(await fam([])).toEqual(["gjc:user", "c2:user"]);
    expect(await fam(["--family", "c2"])).toEqual(["c2:user"]);
    expect(await fam(["--project"])).toEqual([]);
    expect((await s.gjc(["plugin", "verify", "--user", "--family", "gjc", "--json"])).json().bundles).toHaveLength(1);
    expect(
      (await s.gjc(["plugin", "doctor", "--project", "--json"]))
        .json()
        .stores.map((x: { family: string; scope: string }) => `${x.family}:${x.scope}`),
    ).toEqual(["gjc:project"]);
    await refused(s, ["plugin", "list", "--family", "npm"], "invalid_option_value", 2);
    await refused(s, ["plugin", "list", "--user", "--project"], "scope_conflict", 2);
    // One flag is enough when it leaves one match.
    expect((await s.gjc(["plugin", "uninstall", "demo", "--family", "c2", "--json"])).json()).toMatchObject({
      family: "c2",
      status: "uninstalled",
    });
    expect((await s.gjc(["plugin", "uninstall", "demo", "--json"])).json()).toMatchObject({
      family: "gjc",
      status: "uninstalled",
    });
  });

  test("missing path, folder without manifest, unknown name: the same code and exit in every verb", async () => {
    const s = box();
    const missing = join(s.root, "nope");
    await refused(s, ["plugin", "validate", missing], "not_found", 2);
    await refused(s, ["plugin", "install", missing, "--user"], "not_found", 2);
    await refused(s, ["plugin", "install", missing], "not_found", 2);
    const empty = join(s.root, "empty");
    mkdirSync(empty);
    writeFileSync(join(empty, "README.md"), "no manifest here\n");
    await refused(s, ["plugin", "validate", empty], "no_manifest", 1);
    await refused(s, ["plugin", "install", empty, "--user"], "no_manifest", 1);
    for (const verb of ["inspect", "uninstall", "enable", "disable", "upgrade", "verify"])
      await refused(s, ["plugin", verb, "ghost"], "not_installed", 1);
    await refused(s, ["plugin", "uninstall", "ghost", "--user"], "not_installed", 1);
  });
});

describe("doctor on the C2 store", () => {
  test("finds a dead command's lock and staging, an unusable record and a corrupt policy, says what fixes each; --fix repairs what is safe", async () => {
    const s = box();
    const dir = s.write("src/demo", runtimeBundle("demo"));
    expect((await s.gjc(["plugin", "install", dir])).exitCode).toBe(0);
    s.write("src/demo", runtimeBundle("demo", "2.0.0"));
    const killed = await s.gjc(["plugin", "install", dir, "--force"], {
      env: { GJC_TEST_CRASH_AT: "c2install:staged" },
    });
    expect(killed.exitCode).toBe(137);
    mkdirSync(join(s.c2, "plugins", "broken-00000000"));
    writeFileSync(join(s.c2, "plugins", "broken-00000000", "installed-plugin.json"), "{ not json");
    writeFileSync(join(s.c2, "plugin-config.json"), "{ not json");

    const report = await s.gjc(["plugin", "doctor", "--family", "c2", "--json"]);
    expect(report.exitCode).toBe(1);
    const byKind = Object.fromEntries(
      report
        .json()
        .findings.map((f: { kind: string; fixable: boolean; command?: string }) => [f.kind, [f.fixable, f.command]]),
    );
    expect(byKind).toEqual({
      stale_lock: [true, "gjc plugin doctor --fix"],
      leftover: [true, "gjc plugin doctor --fix"],
      broken_record: [true, "gjc plugin doctor --fix"],
      corrupt_policy: [false, "gjc plugin policy reset demo"],
    });
    const human = (await s.gjc(["plugin", "doctor"])).stdout;
    expect(human).toContain("C2 store");
    expect(human).toContain("--fix would remove the bundle directory");
    expect(human).toContain("gjc plugin policy reset demo");

    // verify cannot check an unusable record: it fails (exit 3) naming it, as for a corrupt registry.
    const verify = await s.gjc(["plugin", "verify", "--json"]);
    expect([verify.exitCode, verify.json().problems.map((p: { id: string }) => p.id)]).toEqual([
      3,
      ["broken-00000000"],
    ]);

    const fixed = await s.gjc(["plugin", "doctor", "--fix", "--json"]);
    const open = fixed
      .json()
      .findings.filter((f: { fixed?: boolean }) => !f.fixed)
      .map((f: { kind: string }) => f.kind);
    expect(open).toEqual(["corrupt_policy"]);
    expect(existsSync(join(s.c2, "c2.lock"))).toBe(false);
    expect(existsSync(join(s.c2, "plugins", "broken-00000000"))).toBe(false);
    expect(c2Leftovers(s)).toEqual([]);
    expect((await s.gjc(["plugin", "policy", "reset", "demo", "--json"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "doctor", "--json"])).json()).toMatchObject({ ok: true });
    // The interrupted update left the store as before it.
    expect(
      (await s.gjc(["plugin", "list", "--json"])).json().bundles.map((b: { version: string }) => b.version),
    ).toEqual(["1.0.0"]);

    // A policy file deleted beside its last good copy: reported, and --fix brings the policy back.
    const token = (await s.gjc(["plugin", "policy", "plan", "demo", "--state", "disabled", "--json"])).json().token;
    expect((await s.gjc(["plugin", "policy", "apply", token])).exitCode).toBe(0);
    const policyState = async () => (await s.gjc(["plugin", "list", "--json"])).json().bundles[0].c2.policy.state;
    expect(await policyState()).toBe("disabled");
    rmSync(join(s.c2, "plugin-config.json"));
    expect(await policyState()).toBe("enabled");
    const missing = (await s.gjc(["plugin", "doctor", "--json"])).json();
    expect(missing.findings.map((f: { kind: string; fixable: boolean }) => [f.kind, f.fixable])).toEqual([
      ["missing_policy", true],
    ]);
    expect((await s.gjc(["plugin", "doctor", "--fix", "--json"])).json()).toMatchObject({
      ok: true,
      findings: [{ kind: "missing_policy", fixed: true }],
    });
    expect(await policyState()).toBe("disabled");
    expect((await s.gjc(["plugin", "doctor", "--json"])).json()).toMatchObject({ ok: true, findings: [] });
  });
});
