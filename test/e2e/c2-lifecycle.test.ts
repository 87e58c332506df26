/**
 * The C2 lifecycle through the real CLI (one process per command): install from a folder and
 * from catalogs, trust/enable as separate decisions, list/inspect, uninstall, and refusals
 * (code, exit status, unchanged data dir). `C2_E2E_BINARY` runs the same file against a
 * compiled binary (see c2-lifecycle.compiled.test.ts).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { runtimeBundle, skillsBundle } from "../unit/c2store/_bundles.ts";

const box = sandboxPerTest("gjc-c2e2e-");

/** The CLI in a fresh sandbox, run from its root (no project scope). */
function c2Cli(binary?: string) {
  const s = box();
  return {
    root: s.root,
    data: s.c2,
    run: (...args: string[]) => s.gjc(args, { cwd: s.root, binary }),
    bundle: s.write,
  };
}

function errorOf(r: { stderr: string }): { code: string } {
  const line = r.stderr.split("\n").find((l) => l.startsWith('{"error"'));
  if (!line) throw new Error(`no JSON error on stderr:\n${r.stderr}`);
  return JSON.parse(line).error;
}

describe("gjc plugin install (C2)", () => {
  test("installs a folder, prints the trust notice, and list/inspect show enable, trust, counts and components", async () => {
    const c = c2Cli();
    const dir = c.bundle("demo", runtimeBundle("demo"));
    const r = await c.run("plugin", "install", dir, "--json");
    expect(r.exitCode).toBe(0);
    const out = r.json();
    expect(out).toMatchObject({
      schema: "gjc/install@1",
      ok: true,
      family: "c2",
      status: "installed",
      name: "demo",
      scope: "user",
      enabled: true,
      c2: { trusted: false },
    });
    expect(out).not.toHaveProperty("human");
    expect(out.warnings.map((w: { code: string }) => w.code)).toEqual(["runtime.requires_trust"]);
    expect(r.stderr).toContain("runtime.requires_trust");
    expect(existsSync(join(c.data, "plugins", out.c2.id, "bundle", "plugin.js"))).toBe(true);

    const human = await c.run("plugin", "install", dir);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toContain("already installed with the same content");

    const list = (await c.run("plugin", "list", "--json")).json();
    expect(list.bundles).toEqual([
      expect.objectContaining({
        family: "c2",
        name: "demo",
        scope: "user",
        enabled: true,
        c2: expect.objectContaining({ id: out.c2.id, trusted: false }),
      }),
    ]);
    const listText = (await c.run("plugin", "list")).stdout;
    expect(listText).toContain("enabled, not trusted");
    expect(listText).toContain("runtime 1, runtimeCommands 1, ui 1 · 1 need trust");
    const inspect = await c.run("plugin", "inspect", "demo", "--json");
    expect(inspect.exitCode).toBe(0);
    const b = inspect.json().bundle;
    expect(b).toMatchObject({
      enabled: true,
      c2: { trusted: false, contributions: { runtime: 1, runtimeCommands: 1, ui: 1 } },
    });
    expect(
      b.c2.components.map((x: { kind: string; effectiveStatus: string }) => `${x.kind}:${x.effectiveStatus}`),
    ).toEqual(["command:ready", "ui:requires-trust"]);
    expect(b.c2.diagnosticsList.map((d: { code: string }) => d.code)).toContain("runtime.requires_trust");
    const text = await c.run("plugin", "inspect", "demo");
    expect(text.stdout).toContain("trusted: no");
  });

  test("trust/untrust and enable/disable are separate decisions", async () => {
    const c = c2Cli();
    await c.run("plugin", "install", c.bundle("demo", runtimeBundle("demo")));
    expect((await c.run("plugin", "trust", "demo", "--json")).json()).toMatchObject({
      schema: "gjc/trust@1",
      changed: true,
      enabled: true,
      trusted: true,
    });
    expect((await c.run("plugin", "disable", "demo", "--json")).json()).toMatchObject({
      family: "c2",
      enabled: false,
      c2: { trusted: true },
    });
    expect((await c.run("plugin", "untrust", "demo", "--json")).json()).toMatchObject({
      schema: "gjc/untrust@1",
      enabled: false,
      trusted: false,
    });
    expect((await c.run("plugin", "enable", "demo", "--json")).json()).toMatchObject({
      enabled: true,
      c2: { trusted: false },
    });
    const again = await c.run("plugin", "enable", "demo");
    expect(again.stdout).toContain("already enabled");
    const before = snapshotTree(c.data);
    const missing = await c.run("plugin", "trust", "nope", "--json");
    expect(missing.exitCode).toBe(1);
    expect(errorOf(missing).code).toBe("not_installed");
    expect(snapshotTree(c.data)).toEqual(before);
  });

  test("refusals leave the data dir byte-identical: --project, invalid bundle, changed content without --force", async () => {
    const c = c2Cli();
    const dir = c.bundle("demo", runtimeBundle("demo"));
    const project = await c.run("plugin", "install", dir, "--project", "--json");
    expect(project.exitCode).toBe(2);
    expect(errorOf(project).code).toBe("c2_project_scope");
    expect(existsSync(c.data)).toBe(false);

    await c.run("plugin", "install", dir);
    const before = snapshotTree(c.data);
    const bad = c.bundle("bad", {
      "plugin.json": {
        $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
        name: "bad",
        version: "1.0.0",
        extensions: { "dev.codetwo": { standardVersion: "1.1.0" } },
      },
    });
    const invalid = await c.run("plugin", "install", bad, "--json");
    expect(invalid.exitCode).toBe(1);
    c.bundle("demo", runtimeBundle("demo", "2.0.0"));
    const changed = await c.run("plugin", "install", dir, "--json");
    expect(changed.exitCode).toBe(1);
    expect(errorOf(changed).code).toBe("already_installed");
    const dry = await c.run("plugin", "install", dir, "--force", "--dry-run", "--json");
    expect(dry.json()).toMatchObject({ status: "would-update", version: "2.0.0" });
    expect(snapshotTree(c.data)).toEqual(before);
    const forced = await c.run("plugin", "install", dir, "--force", "--json");
    expect(forced.json()).toMatchObject({ status: "updated", version: "2.0.0", previousVersion: "1.0.0" });
  });

  test("upgrade re-reads the recorded source and keeps the id and trust", async () => {
    const c = c2Cli();
    const dir = c.bundle("demo", runtimeBundle("demo", "1.0.0"));
    const first = (await c.run("plugin", "install", dir, "--json")).json();
    await c.run("plugin", "trust", "demo");
    c.bundle("demo", runtimeBundle("demo", "1.2.0"));
    const up = await c.run("plugin", "upgrade", "demo", "--json");
    expect(up.exitCode).toBe(0);
    expect(up.json()).toMatchObject({
      schema: "gjc/upgrade@1",
      status: "updated",
      version: "1.2.0",
      c2: { id: first.c2.id, trusted: true },
    });
    const missing = await c.run("plugin", "upgrade", "ghost", "--json");
    expect(missing.exitCode).toBe(1);
  });

  test("uninstall [--keep-data]", async () => {
    const c = c2Cli();
    const a = (await c.run("plugin", "install", c.bundle("a", skillsBundle("alpha")), "--json")).json();
    const b = (await c.run("plugin", "install", c.bundle("b", skillsBundle("beta")), "--json")).json();
    writeFileSync(join(c.data, "plugins", ".data", b.c2.id, "notes.db"), "keep");
    const dry = await c.run("plugin", "uninstall", "alpha", "--dry-run", "--json");
    expect(dry.json()).toMatchObject({ status: "would-uninstall" });
    expect(existsSync(join(c.data, "plugins", a.c2.id))).toBe(true);
    expect((await c.run("plugin", "uninstall", "alpha")).exitCode).toBe(0);
    expect(existsSync(join(c.data, "plugins", a.c2.id))).toBe(false);
    expect(existsSync(join(c.data, "plugins", ".data", a.c2.id))).toBe(false);
    expect((await c.run("plugin", "uninstall", "beta", "--keep-data", "--json")).json()).toMatchObject({
      c2: { dataKept: true },
    });
    expect(readFileSync(join(c.data, "plugins", ".data", b.c2.id, "notes.db"), "utf8")).toBe("keep");
  });
});

describe("catalog entries", () => {
  test("<name>@<catalog> and --catalog install; NOT_AVAILABLE, npm and mismatches are refused", async () => {
    const c = c2Cli();
    c.bundle("cat/alpha", skillsBundle("alpha"));
    c.bundle("cat/beta", skillsBundle("beta", "1.0.0"));
    mkdirSync(join(c.root, "cat"), { recursive: true });
    writeFileSync(
      join(c.root, "cat", "marketplace.json"),
      JSON.stringify({
        standardVersion: "1.0.0",
        name: "team",
        plugins: [
          { name: "alpha", version: "1.0.0", source: { kind: "local", path: "./alpha" } },
          { name: "beta", version: "2.0.0", source: { kind: "local", path: "./beta" } },
          {
            name: "closed",
            version: "1.0.0",
            installationPolicy: "NOT_AVAILABLE",
            source: { kind: "local", path: "./alpha" },
          },
          { name: "pkg", version: "1.0.0", source: { kind: "npm", package: "pkg" } },
        ],
      }),
    );
    const viaAt = await c.run("plugin", "install", "alpha@./cat", "--json");
    expect(viaAt.exitCode).toBe(0);
    expect(viaAt.json()).toMatchObject({ family: "c2", name: "alpha", source: { display: "Marketplace · team" } });
    expect(
      (await c.run("plugin", "install", "alpha", "--catalog", "cat/marketplace.json", "--json")).json().status,
    ).toBe("unchanged");
    const before = snapshotTree(c.data);
    for (const [entry, code, exit] of [
      ["beta", "catalog_mismatch", 3],
      ["closed", "not_available", 3],
      ["pkg", "unsupported_source", 1],
      ["ghost", "not_in_catalog", 1],
    ] as const) {
      const r = await c.run("plugin", "install", `${entry}@./cat`, "--json");
      expect({ entry, exit: r.exitCode, code: errorOf(r).code }).toEqual({ entry, exit, code });
    }
    const project = await c.run("plugin", "install", "alpha@./cat", "--project", "--json");
    expect(project.exitCode).toBe(2);
    expect(snapshotTree(c.data)).toEqual(before);
  });
});
