/** C2 catalogs (marketplace.json 1.0.0) through the real CLI: every fixture with its exact codes. */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { snapshotTree, writeTree, tempDirsPerTest } from "../helpers/tmp.ts";

// prettier-ignore
const TABLE: [name: string, exit: 0 | 1, errors: string[]][] = [
  ["catalog-mismatch-name", 1, ["catalog_mismatch"]],
  ["catalog-mismatch-version", 1, ["catalog_mismatch"]],
  ["duplicate-plugin", 1, ["duplicate_plugin"]],
  ["invalid-catalog-missing-plugins", 1, ["invalid_catalog"]],
  ["invalid-catalog-not-object", 1, ["invalid_catalog"]],
  ["invalid-entry-archive-http-url", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-git-http-url", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-git-path-parent", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-github-repo-key-repo", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-github-sha-short", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-local-missing-dir", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-local-path-absolute", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-missing-source", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-npm-bad-package", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-policy-unknown", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-source-kind-unknown", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-source-no-fallthrough", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-unknown-field", 1, ["invalid_plugin_entry"]],
  ["invalid-entry-version-not-semver", 1, ["invalid_plugin_entry"]],
  ["invalid-local-bundle", 1, ["invalid_command", "invalid_plugin_entry"]],
  ["unknown-field-catalog", 1, ["unknown_field"]],
  ["unsafe-path-local-escape", 1, ["unsafe_path"]],
  ["unsupported-standard", 1, ["unsupported_standard"]],
  ["valid-bundle-root-catalog", 0, []],
  ["valid-local-and-remote", 0, []],
];

const CATALOGS = join(fixturesDir, "catalogs");
const errorCodes = (doc: any) =>
  [...new Set((doc.diagnostics as any[]).filter((d) => d.severity === "error").map((d) => d.code))].sort();

const fresh = tempDirsPerTest();

describe("marketplace validate", () => {
  for (const [name, exit, errors] of TABLE) {
    test(`${name}: exit ${exit} ${errors.join(",")}`, async () => {
      const dir = join(CATALOGS, name);
      const before = snapshotTree(dir);
      const r = await runCli(["marketplace", "validate", dir, "--json"]);
      expect(r.exitCode).toBe(exit);
      const doc = r.json();
      expect(doc.schema).toBe("gjc/validate@1");
      expect(doc.family).toBe("catalog");
      expect(errorCodes(doc)).toEqual(errors);
      expect(snapshotTree(dir)).toEqual(before);
    });
  }

  test("entries are summarized with their source and validity", async () => {
    const doc = (await runCli(["marketplace", "validate", join(CATALOGS, "valid-local-and-remote"), "--json"])).json();
    expect(doc.name).toBe("fixture-catalog");
    expect(doc.entries.map((e: any) => [e.name, e.ok])).toEqual([
      ["notes-skills", true],
      ["hello-runtime", true],
      ["gh-plugin", true],
      ["git-plugin", true],
      ["scp-plugin", true],
      ["npm-plugin", true],
      ["archive-plugin", true],
    ]);
    expect(doc.entries[2].source).toBe("github octo-org/gh-plugin/packs/gh-plugin@0123456789ab");
    // the runtime bundle's trust warning is reported against its path inside the catalog
    expect(doc.diagnostics.map((d: any) => [d.code, d.path])).toEqual([
      ["runtime.requires_trust", "plugins/hello-runtime/plugin.json#/extensions/dev.codetwo/runtime"],
    ]);
  });

  test("an unknown entry field gets a did-you-mean", async () => {
    const doc = (
      await runCli(["marketplace", "validate", join(CATALOGS, "invalid-entry-unknown-field"), "--json"])
    ).json();
    expect(doc.diagnostics[0].path).toBe("marketplace.json#/plugins/0/sourc");
    expect(doc.diagnostics[0].message).toContain('Did you mean "source"?');
  });

  test("gjc plugin validate accepts a directory holding only marketplace.json, and the file itself", async () => {
    const dir = join(CATALOGS, "duplicate-plugin");
    for (const target of [dir, join(dir, "marketplace.json")]) {
      const r = await runCli(["plugin", "validate", target, "--json"]);
      expect(r.exitCode).toBe(1);
      expect(r.json().family).toBe("catalog");
      expect(errorCodes(r.json())).toEqual(["duplicate_plugin"]);
    }
    const human = await runCli(["plugin", "validate", dir]);
    expect(human.stdout).toContain("[duplicate_plugin]");
    expect(human.stdout).toContain("✗ invalid catalog fixture-catalog");
  });

  test("a bundle directory that also holds its catalog: plugin validate checks the bundle, marketplace validate the catalog", async () => {
    const dir = join(CATALOGS, "valid-bundle-root-catalog");
    expect((await runCli(["plugin", "validate", dir, "--json"])).json().family).toBe("c2");
    expect((await runCli(["marketplace", "validate", dir, "--json"])).json().family).toBe("catalog");
  });

  test("marketplace validate refuses a bundle without a catalog (usage, exit 2)", async () => {
    const r = await runCli(["marketplace", "validate", join(fixturesDir, "examples", "notes-skills"), "--json"]);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr.trim()).error.code).toBe("wrong_target");
  });

  test("a local source that reaches its bundle through a symlink is refused", async () => {
    const t = fresh();
    const outside = join(t, "outside");
    cpSync(join(fixturesDir, "examples", "notes-skills"), outside, { recursive: true });
    const catalog = join(t, "catalog");
    mkdirSync(join(catalog, "plugins"), { recursive: true });
    symlinkSync(outside, join(catalog, "plugins", "notes-skills"));
    writeTree(catalog, {
      "marketplace.json": {
        standardVersion: "1.0.0",
        name: "c",
        plugins: [
          { name: "notes-skills", version: "0.3.1", source: { kind: "local", path: "./plugins/notes-skills" } },
        ],
      },
    });
    const r = await runCli(["marketplace", "validate", catalog, "--json"]);
    expect(r.exitCode).toBe(1);
    expect(r.json().diagnostics.map((d: any) => [d.code, d.path])).toEqual([
      ["unsafe_path", "marketplace.json#/plugins/0/source/path"],
    ]);
  });

  test("a symlinked marketplace.json is refused", async () => {
    const t = fresh();
    writeTree(t, { "real/marketplace.json": { standardVersion: "1.0.0", name: "c", plugins: [] } });
    mkdirSync(join(t, "cat"));
    symlinkSync(join(t, "real", "marketplace.json"), join(t, "cat", "marketplace.json"));
    const r = await runCli(["marketplace", "validate", join(t, "cat"), "--json"]);
    expect(r.exitCode).toBe(1);
    expect(errorCodes(r.json())).toEqual(["unsafe_path"]);
  });
});
