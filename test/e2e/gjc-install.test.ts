import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fixturesDir } from "../helpers/cli.ts";
import { spawnScoped } from "../helpers/sandbox.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let w: World;
afterEach(() => w?.cleanup());

const registry = (root: string) => JSON.parse(readFileSync(join(root, "registry.json"), "utf8"));
const contentDirs = (root: string) => readdirSync(root).filter((n) => n.includes("@"));

/** Runs a command that must be refused and proves nothing changed anywhere in the world. */
async function refused(args: string[], code: string, exit: number, env?: Record<string, string>) {
  const before = snapshotTree(w.root);
  const r = await w.gjc([...args, "--json"], { env });
  expect({ exit: r.exitCode, code: r.json().error?.code }).toEqual({ exit, code });
  expect(JSON.parse(r.stderr.trim().split("\n").pop()!).error.code).toBe(code);
  expect(snapshotTree(w.root)).toEqual(before);
  return r.json().error;
}

describe("gjc plugin install (GJC)", () => {
  test("installs into the user scope: registry v1, content dir, last good copy, list/inspect/verify", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "alpha", {
      tools: ["alpha_note"],
      mcps: ["alpha_docs"],
      files: { "tools/run.sh": { content: "#!/bin/sh\n", mode: 0o775 }, "README.md": "not declared\n" },
    });
    const r = await w.gjc(["plugin", "install", src, "--user", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json()).toMatchObject({
      schema: "gjc/install@1",
      status: "installed",
      scope: "user",
      name: "alpha",
      version: "1.0.0",
      gjc: { surfaces: { added: ["mcp:alpha_docs", "tool:alpha_note"] } },
    });

    const reg = registry(w.user);
    expect(reg).toMatchObject({ version: 1, scope: "user" });
    expect(reg.plugins).toHaveLength(1);
    const e = reg.plugins[0];
    expect(e).toMatchObject({ name: "alpha", version: "1.0.0", scope: "user", enabled: true, disabledSurfaceIds: [] });
    expect(e.pluginRoot).toBe(join(w.user, e.dir));
    expect(e.manifestPath).toBe(join(w.user, e.dir, "gajae-plugin.json"));
    expect(e.source).toMatchObject({ kind: "path", uri: src });
    expect(e.copiedFiles[0].relativePath).toBe("gajae-plugin.json");
    expect(e.copiedFiles.map((f: { relativePath: string }) => f.relativePath).sort()).toEqual([
      "gajae-plugin.json",
      "mcp/alpha_docs.ts",
      "tools/alpha_note.ts",
    ]);
    for (const f of e.copiedFiles) expect(f.mode).toBe(0o644);
    expect(e.surfaces.tools[0]).toMatchObject({ extensionId: "tool:alpha_note", kind: "tool" });
    expect(e.surfaces.mcps[0]).toMatchObject({ extensionId: "mcp:alpha_docs", kind: "mcp" });
    // Only declared files are installed; the last good copy equals the committed registry.
    expect(existsSync(join(e.pluginRoot, "README.md"))).toBe(false);
    expect(readFileSync(join(w.user, "registry.last-good.json"), "utf8")).toBe(
      readFileSync(join(w.user, "registry.json"), "utf8"),
    );
    expect(readdirSync(w.user).sort()).toEqual(
      [e.dir, "registry.index.json", "registry.json", "registry.last-good.json"].sort(),
    );
    expect(existsSync(join(w.project, ".gjc"))).toBe(false);

    const list = await w.gjc(["plugin", "list", "--json"]);
    expect(list.exitCode).toBe(0);
    expect(list.json().bundles).toMatchObject([
      {
        family: "gjc",
        name: "alpha",
        scope: "user",
        enabled: true,
        quarantined: false,
        gjc: { counts: { surfaces: 2, enabled: 2, disabled: 0, quarantined: 0 } },
      },
    ]);
    const inspect = await w.gjc(["plugin", "inspect", "alpha", "--user", "--json"]);
    expect(inspect.json().bundle.gjc.surfaces.map((s: { id: string; state: string }) => `${s.id}=${s.state}`)).toEqual([
      "mcp:alpha_docs=enabled",
      "tool:alpha_note=enabled",
    ]);
    const verify = await w.gjc(["plugin", "verify", "--json"]);
    expect(verify.exitCode).toBe(0);
    expect(verify.json()).toMatchObject({ ok: true, bundles: [{ name: "alpha", ok: true, checked: 3 }] });
  });

  test("identical re-install is a no-op; different content is refused without --force and replaced with it", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "beta", { tools: ["beta_a", "beta_b"] });
    expect((await w.gjc(["plugin", "install", src, "--project"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "disable", "beta", "--project", "--surface", "tool:beta_b"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "disable", "beta", "--project"])).exitCode).toBe(0);

    const before = snapshotTree(w.root);
    const same = await w.gjc(["plugin", "install", src, "--project", "--json"]);
    expect(same.exitCode).toBe(0);
    expect(same.json().status).toBe("unchanged");
    expect(snapshotTree(w.root)).toEqual(before);

    writeBundle(src, "beta", { version: "1.1.0", tools: ["beta_b", "beta_c"] });
    rmSync(join(src, "tools", "beta_a.ts"));
    const err = await refused(["plugin", "install", src, "--project"], "already_installed", 1);
    expect(err.hint).toContain("--force");

    const oldDir = registry(w.projectScope).plugins[0].dir;
    const forced = await w.gjc(["plugin", "install", src, "--project", "--force", "--json"]);
    expect(forced.exitCode).toBe(0);
    expect(forced.json()).toMatchObject({
      status: "updated",
      previousVersion: "1.0.0",
      version: "1.1.0",
      gjc: { surfaces: { added: ["tool:beta_c"], removed: ["tool:beta_a"], kept: ["tool:beta_b"] } },
    });
    const e = registry(w.projectScope).plugins[0];
    expect(e.enabled).toBe(false);
    expect(e.disabledSurfaceIds).toEqual(["tool:beta_b"]);
    expect(e.version).toBe("1.1.0");
    expect(contentDirs(w.projectScope)).toEqual([e.dir]);
    expect(e.dir).not.toBe(oldDir);
  });

  test("scope flags: GJC needs exactly one of --user/--project; nothing is created when refused", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "gamma");
    await refused(["plugin", "install", src], "scope_required", 2);
    await refused(["plugin", "install", src, "--user", "--project"], "scope_conflict", 2);
    expect(existsSync(w.user)).toBe(false);
    expect(existsSync(join(w.project, ".gjc"))).toBe(false);
  });

  test("an invalid bundle, a missing source and a dry run change nothing", async () => {
    w = makeWorld();
    await refused(["plugin", "install", join(fixturesDir, "gjc", "bad-json"), "--user"], "invalid_manifest", 1);
    await refused(["plugin", "install", join(fixturesDir, "gjc", "path-traversal"), "--project"], "missing_file", 1);
    // The same answer validate gives for a path that is not there.
    await refused(["plugin", "install", join(w.root, "nope"), "--user"], "not_found", 2);
    const src = writeBundle(join(w.root, "src"), "delta");
    const before = snapshotTree(w.root);
    const dry = await w.gjc(["plugin", "install", src, "--user", "--dry-run", "--json"]);
    expect(dry.exitCode).toBe(0);
    expect(dry.json()).toMatchObject({ status: "would-install", files: 2 });
    expect(snapshotTree(w.root)).toEqual(before);
  });

  test("collisions span both scopes (the registry is the authority); the same bundle may live in both", async () => {
    w = makeWorld();
    const one = writeBundle(join(w.root, "one"), "one", { tools: ["shared_tool"] });
    const two = writeBundle(join(w.root, "two"), "two", { tools: ["shared_tool"] });
    expect((await w.gjc(["plugin", "install", one, "--user"])).exitCode).toBe(0);
    // A disabled bundle still owns its names.
    expect((await w.gjc(["plugin", "disable", "one", "--user"])).exitCode).toBe(0);
    const err = await refused(["plugin", "install", two, "--project"], "duplicate_tool", 1);
    expect(err.message).toContain("one");
    expect(existsSync(join(w.project, ".gjc"))).toBe(false);
    expect((await w.gjc(["plugin", "install", one, "--project"])).exitCode).toBe(0);
    const list = (await w.gjc(["plugin", "list", "--json"])).json();
    expect(list.bundles.map((b: { name: string; scope: string }) => `${b.name}@${b.scope}`)).toEqual([
      "one@user",
      "one@project",
    ]);
    // A name in both scopes: one error listing both, with the flag that picks one.
    const hint = await refused(["plugin", "inspect", "one"], "ambiguous_plugin", 2);
    expect(hint.hint).toContain("--user or --project");
  });

  test("enable/disable of a bundle and a surface; refusals leave the scope unchanged", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "eps", { tools: ["eps_a", "eps_b"] });
    await w.gjc(["plugin", "install", src, "--user"]);
    const off = await w.gjc(["plugin", "disable", "eps", "--user", "--surface", "tool:eps_a", "--json"]);
    expect(off.json()).toMatchObject({ schema: "gjc/disable@1", changed: true, surface: "tool:eps_a", enabled: false });
    const again = await w.gjc(["plugin", "disable", "eps", "--user", "--surface", "tool:eps_a", "--json"]);
    expect(again.json().changed).toBe(false);
    expect(registry(w.user).plugins[0].disabledSurfaceIds).toEqual(["tool:eps_a"]);
    const inspect = (await w.gjc(["plugin", "inspect", "eps", "--user", "--json"])).json().bundle;
    expect(inspect.gjc.counts).toEqual({ surfaces: 2, enabled: 1, disabled: 1, quarantined: 0 });
    const unknown = await refused(
      ["plugin", "enable", "eps", "--user", "--surface", "tool:eps_c"],
      "surface_unknown",
      1,
    );
    expect(unknown.message).toContain("tool:eps_a");
    await refused(["plugin", "enable", "zzz", "--user"], "not_installed", 1);
    expect((await w.gjc(["plugin", "enable", "eps", "--user", "--surface", "tool:eps_a"])).exitCode).toBe(0);
    expect(registry(w.user).plugins[0].disabledSurfaceIds).toEqual([]);
  });

  test("verify: drift of every kind quarantines (exit 3), enabling is refused, a clean verify or a reinstall clears it", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "zeta", { tools: ["zeta_a", "zeta_b", "zeta_c", "zeta_d"] });
    await w.gjc(["plugin", "install", src, "--user"]);
    const e = registry(w.user).plugins[0];
    const file = (t: string) => join(e.pluginRoot, "tools", `${t}.ts`);
    const original = readFileSync(file("zeta_a"));
    writeFileSync(file("zeta_a"), "changed\n");
    rmSync(file("zeta_b"));
    chmodSync(file("zeta_c"), 0o755);
    rmSync(file("zeta_d"));
    symlinkSync(join(src, "tools", "zeta_d.ts"), file("zeta_d"));
    writeFileSync(join(e.pluginRoot, "extra.txt"), "x");

    const v = await w.gjc(["plugin", "verify", "zeta", "--json"]);
    expect(v.exitCode).toBe(3);
    const kinds = v
      .json()
      .bundles[0].problems.map((p: { kind: string; path: string }) => `${p.kind}:${p.path}`)
      .sort();
    expect(kinds).toEqual([
      "changed:tools/zeta_a.ts",
      "extra:extra.txt",
      "missing:tools/zeta_b.ts",
      "mode:tools/zeta_c.ts",
      "symlink:tools/zeta_d.ts",
    ]);
    const q = registry(w.user).plugins[0].quarantine;
    expect(
      q.every(
        (r: { code: string; surfaceId: string }) => r.code === "runtime_mismatch" && r.surfaceId === "plugin:zeta",
      ),
    ).toBe(true);
    expect(q.map((r: { message: string }) => r.message).join("\n")).toContain("tools/zeta_a.ts");
    const list = (await w.gjc(["plugin", "list", "--json"])).json().bundles[0];
    expect(list).toMatchObject({ quarantined: true, gjc: { counts: { quarantined: 4 } } });

    await w.gjc(["plugin", "disable", "zeta", "--user"]);
    await refused(["plugin", "enable", "zeta", "--user"], "quarantined", 3);
    await refused(["plugin", "enable", "zeta", "--user", "--surface", "tool:zeta_a"], "quarantined", 3);

    // Put everything back by hand: a clean verify clears the quarantine.
    writeFileSync(file("zeta_a"), original);
    writeFileSync(file("zeta_b"), readFileSync(join(src, "tools", "zeta_b.ts")));
    chmodSync(file("zeta_b"), 0o644);
    chmodSync(file("zeta_c"), 0o644);
    rmSync(file("zeta_d"));
    writeFileSync(file("zeta_d"), readFileSync(join(src, "tools", "zeta_d.ts")));
    rmSync(join(e.pluginRoot, "extra.txt"));
    const clean = await w.gjc(["plugin", "verify", "--json"]);
    expect(clean.exitCode).toBe(0);
    expect(clean.json().bundles[0].change).toBe("cleared");
    expect(registry(w.user).plugins[0].quarantine).toBeUndefined();

    // Drift again, then a reinstall of the same source repairs it and clears the quarantine.
    writeFileSync(file("zeta_a"), "changed again\n");
    expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(3);
    const repair = await w.gjc(["plugin", "install", src, "--user", "--json"]);
    expect(repair.json().status).toBe("repaired");
    const after = registry(w.user).plugins[0];
    expect(after.quarantine).toBeUndefined();
    expect(after.enabled).toBe(false);
    expect(contentDirs(w.user)).toEqual([after.dir]);
    expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
  });

  test("uninstall removes exactly the owned files, never through a link, then the dir and the entry", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "eta", { tools: ["eta_a"], files: {} });
    await w.gjc(["plugin", "install", src, "--project"]);
    const e = registry(w.projectScope).plugins[0];
    const dry = await w.gjc(["plugin", "uninstall", "eta", "--project", "--dry-run", "--json"]);
    expect(dry.json()).toMatchObject({ status: "would-uninstall", files: ["gajae-plugin.json", "tools/eta_a.ts"] });
    await refused(["plugin", "uninstall", "eta", "--user"], "not_installed", 1);

    // tools/ swapped for a link to a directory outside: its file must survive.
    const outside = join(w.root, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "eta_a.ts"), "keep me\n");
    rmSync(join(e.pluginRoot, "tools"), { recursive: true });
    symlinkSync(outside, join(e.pluginRoot, "tools"));
    const r = await w.gjc(["plugin", "uninstall", "eta", "--project", "--json"]);
    expect(r.exitCode).toBe(0);
    // The link is not a file the registry records: it is kept (never followed), with the directory renamed out of gjc's names.
    const keptIn = r.json().gjc.keptIn as string;
    expect(r.json()).toMatchObject({
      status: "uninstalled",
      gjc: { unowned: ["tools"], keptIn: expect.stringContaining(join(w.projectScope, "eta.kept-")) },
    });
    expect(readFileSync(join(outside, "eta_a.ts"), "utf8")).toBe("keep me\n");
    expect(existsSync(e.pluginRoot)).toBe(false);
    expect(readdirSync(keptIn)).toEqual(["tools"]);
    expect(registry(w.projectScope).plugins).toEqual([]);
    expect(readdirSync(w.projectScope).sort()).toEqual([
      keptIn.slice(w.projectScope.length + 1),
      "registry.index.json",
      "registry.json",
      "registry.last-good.json",
    ]);
  });

  test("a corrupt or tampered registry fails the scope closed; doctor --fix restores the last good copy", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "theta");
    const other = writeBundle(join(w.root, "other"), "iota");
    await w.gjc(["plugin", "install", src, "--user"]);
    const good = readFileSync(join(w.user, "registry.json"), "utf8");
    const reg = JSON.parse(good);
    const tamper = (mutate: (r: any) => void) => {
      const copy = JSON.parse(good);
      mutate(copy);
      writeFileSync(join(w.user, "registry.json"), JSON.stringify(copy));
    };
    // A structurally impossible registry is corrupt; a well-formed edit breaks its signature
    // (src/store/state-mac.ts), so it is foreign. Both fail closed; doctor --fix restores the
    // last good copy, which we signed.
    const cases: [string, () => void, string, string][] = [
      [
        "bad JSON",
        () => writeFileSync(join(w.user, "registry.json"), "{ nope"),
        "registry_corrupt",
        "corrupt_registry",
      ],
      [
        "a path with ..",
        () => tamper((r) => (r.plugins[0].copiedFiles[1].relativePath = "../../../etc/passwd")),
        "registry_corrupt",
        "corrupt_registry",
      ],
      [
        "an entry outside the root",
        () => tamper((r) => (r.plugins[0].pluginRoot = "/etc")),
        "foreign_scope",
        "foreign_scope",
      ],
      [
        "a foreign dir name",
        () => tamper((r) => ((r.plugins[0].dir = ".."), (r.plugins[0].pluginRoot = join(w.user, "..")))),
        "registry_corrupt",
        "corrupt_registry",
      ],
      ["the wrong scope", () => tamper((r) => (r.scope = "project")), "registry_corrupt", "corrupt_registry"],
    ];
    let lastKind = "";
    for (const [, damage, code, kind] of cases) {
      damage();
      lastKind = kind;
      const err = await refused(["plugin", "install", other, "--user"], code, 3);
      expect(err.hint).toContain("doctor --fix");
      await refused(["plugin", "uninstall", "theta", "--user"], code, 3);
      await refused(["plugin", "enable", "theta", "--user"], code, 3);
      // A project install must read the user registry for collisions: refused as well.
      await refused(["plugin", "install", other, "--project"], code, 3);
      const list = await w.gjc(["plugin", "list", "--json"]);
      expect(list.exitCode).toBe(3);
      expect(list.json().problems[0]).toMatchObject({ family: "gjc", scope: "user" });
      const doc = await w.gjc(["plugin", "doctor", "--json"]);
      expect(doc.exitCode).toBe(1);
      expect(doc.json().findings.find((f: { kind: string }) => f.kind === kind)).toMatchObject({ fixable: true });
    }
    const fix = await w.gjc(["plugin", "doctor", "--fix", "--json"]);
    expect(fix.exitCode).toBe(0);
    expect(fix.json().findings.find((f: { kind: string }) => f.kind === lastKind).fixed).toBe(true);
    expect(JSON.parse(readFileSync(join(w.user, "registry.json"), "utf8"))).toEqual(reg);
    expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "install", other, "--user"])).exitCode).toBe(0);
  });

  test("doctor reports leftovers, stale locks, orphans and missing dirs, and --fix repairs only what gjc made", async () => {
    w = makeWorld();
    const a = writeBundle(join(w.root, "a"), "kappa");
    const b = writeBundle(join(w.root, "b"), "lambda");
    await w.gjc(["plugin", "install", a, "--user"]);
    await w.gjc(["plugin", "install", b, "--user"]);
    const reg = registry(w.user);
    const lambda = reg.plugins.find((p: { name: string }) => p.name === "lambda");
    rmSync(lambda.pluginRoot, { recursive: true });
    mkdirSync(join(w.user, ".staging-kappa-999999-0123456789ab"));
    mkdirSync(join(w.user, "kappa@00000000abcd"));
    mkdirSync(join(w.user, "mine-do-not-touch"));
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    writeFileSync(
      join(w.user, "registry.lock"),
      JSON.stringify({
        pid: dead.pid,
        host: require("node:os").hostname(),
        startedAt: "2020-01-01T00:00:00.000Z",
        command: "gjc plugin install",
        token: `${dead.pid}-abcdef0123456789`,
      }),
    );

    const before = snapshotTree(w.root);
    const report = await w.gjc(["plugin", "doctor", "--json"]);
    expect(report.exitCode).toBe(1);
    expect(snapshotTree(w.root)).toEqual(before);
    const kinds = report
      .json()
      .findings.map((f: { kind: string }) => f.kind)
      .sort();
    expect(kinds).toEqual(["foreign_entry", "leftover", "missing_dir", "orphan_dir", "stale_lock"]);
    const human = await w.gjc(["plugin", "doctor"]);
    expect(human.stdout).toContain("--fix would");

    const fixed = await w.gjc(["plugin", "doctor", "--fix", "--json"]);
    expect(fixed.exitCode).toBe(0);
    expect(readdirSync(w.user).sort()).toEqual(
      [
        reg.plugins.find((p: { name: string }) => p.name === "kappa").dir,
        "mine-do-not-touch",
        "registry.index.json",
        "registry.json",
        "registry.last-good.json",
      ].sort(),
    );
    expect(registry(w.user).plugins.map((p: { name: string }) => p.name)).toEqual(["kappa"]);
    expect((await w.gjc(["plugin", "verify"])).exitCode).toBe(0);
  });

  test("upgrade re-reads the recorded source: dry run, added/removed/kept, choices kept, identity checked", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "mu", { tools: ["mu_a", "mu_b"] });
    await w.gjc(["plugin", "install", src, "--user"]);
    await w.gjc(["plugin", "disable", "mu", "--user", "--surface", "tool:mu_b"]);
    const same = await w.gjc(["plugin", "upgrade", "mu", "--user", "--json"]);
    expect(same.json()).toMatchObject({ schema: "gjc/upgrade@1", status: "unchanged" });

    rmSync(join(src, "tools"), { recursive: true });
    writeBundle(src, "mu", { version: "2.0.0", tools: ["mu_b", "mu_c"] });
    const before = snapshotTree(w.root);
    const dry = await w.gjc(["plugin", "upgrade", "mu", "--user", "--dry-run", "--json"]);
    expect(dry.json()).toMatchObject({
      status: "would-update",
      previousVersion: "1.0.0",
      version: "2.0.0",
      gjc: { surfaces: { added: ["tool:mu_c"], removed: ["tool:mu_a"], kept: ["tool:mu_b"] } },
    });
    expect(snapshotTree(w.root)).toEqual(before);
    const human = await w.gjc(["plugin", "upgrade", "mu", "--user", "--dry-run"]);
    expect(human.stdout).toContain("+ tool:mu_c");
    expect(human.stdout).toContain("- tool:mu_a");

    const up = await w.gjc(["plugin", "upgrade", "mu", "--user", "--json"]);
    expect(up.json()).toMatchObject({ status: "updated", version: "2.0.0" });
    expect(registry(w.user).plugins[0]).toMatchObject({
      version: "2.0.0",
      disabledSurfaceIds: ["tool:mu_b"],
      enabled: true,
    });

    writeBundle(src, "nu", { version: "3.0.0", tools: ["mu_b"] });
    await refused(["plugin", "upgrade", "mu", "--user"], "identity_mismatch", 1);
    await refused(["plugin", "upgrade", "nope", "--user"], "not_installed", 1);
    // Without a flag the resolver finds mu where it is (the user scope) and upgrades it there.
    await refused(["plugin", "upgrade", "mu"], "identity_mismatch", 1);
  });

  test("a busy scope lock ends in lock_busy (exit 5) naming the holder, and nothing changes", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "xi");
    const { processStartTicks } = await import("../../src/process/process-identity.ts");
    {
      // The holder lives until this block ends.
      await using held = spawnScoped([process.execPath, "-e", "await Bun.stdin.text()"], { stdin: "pipe" });
      const holder = held.proc;
      mkdirSync(w.user, { recursive: true });
      writeFileSync(
        join(w.user, "registry.lock"),
        JSON.stringify({
          pid: holder.pid,
          host: require("node:os").hostname(),
          startedAt: new Date().toISOString(),
          processStart: processStartTicks(holder.pid),
          command: "gjc plugin upgrade",
          token: `${holder.pid}-0011223344556677`,
        }),
      );
      const err = await refused(["plugin", "install", src, "--user"], "lock_busy", 5, { GJC_LOCK_TIMEOUT_MS: "300" });
      expect(err.message).toContain(`process ${holder.pid}`);
      expect(err.message).toContain("gjc plugin upgrade");
      await refused(["plugin", "install", src, "--project"], "lock_busy", 5, { GJC_LOCK_TIMEOUT_MS: "300" });
    }
    // Its holder is gone now: the next command takes the lock over.
    expect((await w.gjc(["plugin", "install", src, "--user"])).exitCode).toBe(0);
    expect(existsSync(join(w.user, "registry.lock"))).toBe(false);
  });

  test("a C2 bundle is never installed per project", async () => {
    w = makeWorld();
    const c2 = join(w.root, "c2");
    mkdirSync(c2);
    writeFileSync(join(c2, "plugin.json"), JSON.stringify({ name: "c2-thing", version: "1.0.0" }));
    const err = await refused(["plugin", "install", c2, "--project"], "c2_project_scope", 2);
    expect(err.hint).toContain("policy");
  });
});
