import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { snapshotTree, writeTree } from "../helpers/tmp.ts";
import { runtimeBundle, skillsBundle } from "../unit/c2store/_bundles.ts";

const box = sandboxPerTest();
const catalog = join(fixturesDir, "catalogs", "valid-local-and-remote");

describe("gjc marketplace list", () => {
  test("lists valid entries with their source, says which cannot be installed, and marks installed ones", async () => {
    const s = box();
    const before = await s.gjc(["marketplace", "list", catalog, "--json"]);
    expect(before.exitCode).toBe(0);
    const doc = before.json();
    expect(doc.schema).toBe("gjc/marketplace-list@1");
    expect(doc.name).toBe("fixture-catalog");
    const byName = Object.fromEntries(doc.entries.map((e: { name: string }) => [e.name, e]));
    expect(byName["npm-plugin"]).toMatchObject({ installable: false, installed: null });
    expect(byName["notes-skills"]).toMatchObject({
      installable: true,
      installed: null,
      source: "local ./plugins/notes-skills",
    });
    expect((await s.gjc(["plugin", "install", `notes-skills@${catalog}`])).exitCode).toBe(0);
    const after = (await s.gjc(["marketplace", "list", catalog, "--json"])).json();
    const notes = after.entries.find((e: { name: string }) => e.name === "notes-skills");
    expect(notes.installed).toMatchObject({ version: "0.3.1", enabled: true, trusted: false, runsProcesses: false });
  });

  test("trust is shown only for a bundle that runs processes; inspect warns about trust only while untrusted", async () => {
    const s = box();
    const root = join(s.root, "cat");
    writeTree(join(root, "plugins", "run"), runtimeBundle("run"));
    writeTree(join(root, "plugins", "data"), skillsBundle("data"));
    writeTree(root, {
      "marketplace.json": {
        standardVersion: "1.0.0",
        name: "mixed",
        plugins: [
          { name: "run", version: "1.0.0", source: { kind: "local", path: "./plugins/run" } },
          { name: "data", version: "1.0.0", source: { kind: "local", path: "./plugins/data" } },
        ],
      },
    });
    for (const name of ["run", "data"])
      expect((await s.gjc(["plugin", "install", `${name}@${root}`])).exitCode).toBe(0);
    const lineOf = (out: string, name: string) => out.split("\n").find((l) => l.trimStart().startsWith(`${name} `))!;
    const untrusted = (await s.gjc(["marketplace", "list", root])).stdout;
    expect(lineOf(untrusted, "run")).toContain("installed 1.0.0, untrusted");
    expect(lineOf(untrusted, "data")).toContain("installed 1.0.0");
    expect(lineOf(untrusted, "data")).not.toContain("trusted");
    const warnsTrust = async () =>
      (await s.gjc(["plugin", "inspect", "run", "--json"]))
        .json()
        .bundle.c2.diagnosticsList.some((d: { code: string }) => d.code === "runtime.requires_trust");
    expect(await warnsTrust()).toBe(true);

    expect((await s.gjc(["plugin", "trust", "run"])).exitCode).toBe(0);
    expect(lineOf((await s.gjc(["marketplace", "list", root])).stdout, "run")).toContain("installed 1.0.0, trusted");
    expect(await warnsTrust()).toBe(false);
    expect((await s.gjc(["plugin", "inspect", "run"])).stdout).not.toContain("requires-trust");
    expect((await s.gjc(["plugin", "untrust", "run"])).exitCode).toBe(0);
    expect(await warnsTrust()).toBe(true);
  });

  test("an invalid catalog is refused with its code and a hint to validate; nothing is written", async () => {
    const s = box();
    const r = await s.gjc([
      "marketplace",
      "list",
      join(fixturesDir, "catalogs", "invalid-catalog-not-object"),
      "--json",
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.json().error.code).toBe("invalid_catalog");
    expect(r.json().error.hint).toContain("gjc marketplace validate");
    expect(snapshotTree(s.c2)).toEqual({});
    const missing = await s.gjc(["marketplace", "list", join(s.root, "nope")]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("missing_catalog");
  });
});
