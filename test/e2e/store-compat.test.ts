/**
 * A store written by the previous binary (fixtures/stores/main-4813a3f, see its README) is read,
 * changed, upgraded and removed in place by the current code: the on-disk formats did not change.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir } from "../helpers/cli.ts";
import { sandboxPerTest, type Sandbox } from "../helpers/sandbox.ts";

const box = sandboxPerTest();

/** Copies the old store into the sandbox root and puts the sandbox's absolute root into it. */
function oldStore(s: Sandbox): void {
  const from = join(fixturesDir, "stores", "main-4813a3f");
  for (const part of ["home", "project", "src"]) cpSync(join(from, part), join(s.root, part), { recursive: true });
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)],
    );
  for (const file of walk(s.root).filter((f) => f.endsWith(".json"))) {
    const text = readFileSync(file, "utf8");
    if (text.includes("@ROOT@")) writeFileSync(file, text.replaceAll("@ROOT@", s.root));
  }
}

/**
 * The previous binary did not sign registries (issue #12, class 2): its user scope is read as
 * it is, its project scope is foreign (it could have come with a clone) until the user adopts
 * it with doctor --fix --adopt.
 */
async function adoptOldProject(s: Sandbox): Promise<void> {
  const before = await s.gjc(["plugin", "list", "--json"]);
  expect(before.json().problems).toMatchObject([{ family: "gjc", scope: "project", foreign: true }]);
  const adopt = await s.gjc(["plugin", "doctor", "--fix", "--adopt", "--json"]);
  expect(adopt.json().findings.find((f: { kind: string }) => f.kind === "foreign_scope")).toMatchObject({
    scope: "project",
    fixed: true,
  });
}

describe("a store written by the previous binary (4813a3f)", () => {
  test("is listed, verified, inspected and found healthy by doctor", async () => {
    const s = box();
    oldStore(s);
    await adoptOldProject(s);
    const list = await s.gjc(["plugin", "list", "--json"]);
    expect(list.exitCode).toBe(0);
    expect(
      list
        .json()
        .bundles.map((b: { family: string; name: string; scope: string; enabled: boolean }) => [
          b.family,
          b.name,
          b.scope,
          b.enabled,
        ]),
    ).toEqual([
      ["gjc", "review-kit", "user", true],
      ["gjc", "review-kit", "project", false],
      ["c2", "hello-runtime", "user", true],
      ["c2", "notes-skills", "user", true],
    ]);
    expect(list.json().bundles[2].c2).toMatchObject({ id: "hello-runtime-1d250d6a", trusted: true });
    const verify = await s.gjc(["plugin", "verify", "--json"]);
    expect(verify.exitCode).toBe(0);
    expect(
      verify.json().bundles.map((b: { name: string; ok: boolean; checked: number }) => [b.name, b.ok, b.checked]),
    ).toEqual([
      ["review-kit", true, 5],
      ["review-kit", true, 5],
      ["hello-runtime", true, 4],
      ["notes-skills", true, 5],
    ]);
    expect((await s.gjc(["plugin", "inspect", "notes-skills", "--json"])).json().bundle).toMatchObject({
      family: "c2",
      version: "0.3.1",
      source: { kind: "path" },
      c2: { id: "notes-skills-b104af16" },
    });
    expect((await s.gjc(["plugin", "inspect", "review-kit", "--project", "--json"])).json().bundle.gjc.counts).toEqual({
      surfaces: 5,
      enabled: 0,
      disabled: 5,
      quarantined: 0,
    });
    const doctor = await s.gjc(["plugin", "doctor", "--json"]);
    expect(doctor.json()).toMatchObject({ ok: true, findings: [] });
  });

  test("is changed, upgraded from its recorded source and uninstalled in place, leaving nothing behind", async () => {
    const s = box();
    oldStore(s);
    await adoptOldProject(s);
    // A name in both GJC scopes needs a flag; the C2 bundles are found by name alone.
    expect((await s.gjc(["plugin", "enable", "review-kit", "--json"])).json().error.code).toBe("ambiguous_plugin");
    expect((await s.gjc(["plugin", "enable", "review-kit", "--project", "--json"])).json()).toMatchObject({
      changed: true,
      enabled: true,
    });
    expect((await s.gjc(["plugin", "disable", "notes-skills", "--json"])).json()).toMatchObject({
      family: "c2",
      changed: true,
      enabled: false,
    });
    const record = JSON.parse(
      readFileSync(join(s.c2, "plugins", "notes-skills-b104af16", "installed-plugin.json"), "utf8"),
    );
    expect(record).toMatchObject({ schema_version: 1, enabled: false, trusted: false });

    // GJC upgrade re-reads the recorded source (the fixture's src/review-kit), changed here.
    const skill = join(s.root, "src", "review-kit", "subskills", "review", "SKILL.md");
    writeFileSync(skill, `${readFileSync(skill, "utf8")}\nAlso read the tests.\n`);
    const up = await s.gjc(["plugin", "upgrade", "review-kit", "--user", "--json"]);
    expect(up.exitCode).toBe(0);
    expect(up.json()).toMatchObject({ family: "gjc", status: "updated", previousVersion: "1.0.0", version: "1.0.0" });
    const registry = JSON.parse(readFileSync(join(s.user, "registry.json"), "utf8"));
    expect(registry).toMatchObject({ version: 1, scope: "user", plugins: [{ name: "review-kit" }] });
    expect((await s.gjc(["plugin", "verify"])).exitCode).toBe(0);

    for (const args of [["review-kit", "--user"], ["review-kit", "--project"], ["notes-skills"], ["hello-runtime"]]) {
      const r = await s.gjc(["plugin", "uninstall", ...args, "--json"]);
      expect([args, r.exitCode, r.json().status]).toEqual([args, 0, "uninstalled"]);
    }
    expect((await s.gjc(["plugin", "list", "--json"])).json().bundles).toEqual([]);
    expect(JSON.parse(readFileSync(join(s.user, "registry.json"), "utf8")).plugins).toEqual([]);
    expect(readdirSync(s.user).filter((n) => n.includes("@"))).toEqual([]);
    expect(readdirSync(join(s.c2, "plugins")).filter((n) => n !== ".data")).toEqual([]);
    expect(existsSync(join(s.c2, "c2.lock"))).toBe(false);
  });

  test("a C2 record from before catalogs (no source.catalog) is inspected with catalog null", async () => {
    const s = box();
    oldStore(s);
    const file = join(s.c2, "plugins", "notes-skills-b104af16", "installed-plugin.json");
    const { catalog: _none, ...source } = JSON.parse(readFileSync(file, "utf8")).source;
    writeFileSync(file, `${JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), source }, null, 2)}\n`);
    const inspect = await s.gjc(["plugin", "inspect", "notes-skills", "--json"]);
    expect(inspect.exitCode).toBe(0);
    expect(inspect.json().bundle.c2.catalog).toBeNull();
  });
});
