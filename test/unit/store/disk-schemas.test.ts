/**
 * src/<folder>/disk-schemas.generated.ts and docs/json/<document>.schema.json come from the
 * TypeBox schemas of the on-disk documents: they must be up to date, and the generated check
 * (TypeBox's compiled code) must agree with TypeBox (the one definition) on valid and broken records.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "typebox/value";
import {
  DISK_SCHEMAS,
  diskJsonSchema,
  diskSchemaFolders,
  diskSchemasModuleSource,
  diskTypeboxSchema,
  generatedChecks,
  type DiskSchemaName,
} from "../../../scripts/disk-schemas-source.ts";
import { repoRoot } from "../../helpers/cli.ts";

const generated = await generatedChecks();

const names = Object.keys(DISK_SCHEMAS) as DiskSchemaName[];

describe("the disk-schemas.generated.ts files and docs/json", () => {
  test("the committed files are up to date (run bun scripts/gen-disk-schemas.ts when this fails)", () => {
    for (const folder of diskSchemaFolders().keys())
      expect(readFileSync(join(repoRoot, "src", folder, "disk-schemas.generated.ts"), "utf8")).toBe(
        diskSchemasModuleSource(folder),
      );
    for (const name of names)
      expect(readFileSync(join(repoRoot, "docs", "json", DISK_SCHEMAS[name][2]), "utf8")).toBe(diskJsonSchema(name));
  });

  test("the readers of these documents do not load TypeBox for valid documents (start-up), only the value tests its compiled checks call", () => {
    const modules = [
      "src/c2store/records.ts",
      "src/c2store/records-index.ts",
      "src/c2store/files-stamp.ts",
      "src/install/registry.ts",
      "src/install/list-index.ts",
      "src/c2store/policy-doc.ts",
      "src/c2store/plans.ts",
      "src/mcp/pins.ts",
      "src/store/lock.ts",
      "src/gjcsession/runtime-verdicts.ts",
      "src/store/live-registry.ts",
      "src/store/cache.ts",
      "src/sets/history.ts",
      "src/store/journal.ts",
      "src/sets/known-projects.ts",
      "src/sets/lock-file.ts",
    ];
    const script = `${modules.map((m) => `await import(${JSON.stringify(join(repoRoot, m))});`).join("")}console.log(Object.keys(require.cache).filter((k) => k.includes("node_modules/typebox") && !k.includes("node_modules/typebox/build/guard/")).length);`;
    const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: repoRoot, stdout: "pipe", stderr: "pipe" });
    expect([run.exitCode, run.stdout.toString().trim(), run.stderr.toString()]).toEqual([0, "0", ""]);
  });

  test("load() returns the very TypeBox schema each check was compiled from", () => {
    for (const name of names) expect(generated[name].load()).toBe(diskTypeboxSchema(name));
  });

  test("the generated check agrees with TypeBox on the records of the previous binary's store and on broken ones", () => {
    const dir = join(repoRoot, "fixtures", "stores", "main-4813a3f");
    const records = [...new Bun.Glob("**/installed-plugin.json").scanSync({ cwd: dir, dot: true })].map((p) =>
      JSON.parse(readFileSync(join(dir, p), "utf8")),
    );
    expect(records.length).toBeGreaterThan(0);
    const docs: unknown[] = [];
    for (const r of records) {
      docs.push(
        r,
        { ...r, extra: 1 },
        { ...r, quarantine: "x" },
        { ...r, quarantine: { reason: "r", files: [], at: "" } },
        { ...r, source: { ...r.source, catalog: { path: 1 } } },
        { ...r, files: [{ ...r.files[0], size: "1" }] },
      );
    }
    let accepted = 0;
    for (const doc of docs) {
      const fast = generated.InstalledRecord.check(doc);
      expect({ doc, fast }).toEqual({ doc, fast: Value.Check(diskTypeboxSchema("InstalledRecord") as any, doc) });
      if (fast) accepted++;
    }
    expect(accepted).toBe(records.length * 2);
  });

  test("the generated check agrees with TypeBox on the previous binary's registries and on broken ones", () => {
    const dir = join(repoRoot, "fixtures", "stores", "main-4813a3f");
    const registries = [...new Bun.Glob("**/registry.json").scanSync({ cwd: dir, dot: true })].map((p) =>
      JSON.parse(readFileSync(join(dir, p), "utf8")),
    );
    expect(registries.length).toBe(2);
    const docs: unknown[] = [];
    for (const r of registries) {
      const e = r.plugins[0];
      docs.push(
        r,
        { ...r, mac: "m" },
        { ...r, mac: 1 },
        { ...r, plugins: [{ ...e, extra: 1 }] },
        { ...r, plugins: [{ ...e, copiedFiles: [{ ...e.copiedFiles[0], mode: 0o4755 }] }] },
        { ...r, plugins: [{ ...e, quarantine: [{ surfaceId: "s", code: "c" }] }] },
      );
    }
    let accepted = 0;
    for (const doc of docs) {
      const fast = generated.Registry.check(doc);
      expect({ doc, fast }).toEqual({ doc, fast: Value.Check(diskTypeboxSchema("Registry") as any, doc) });
      if (fast) accepted++;
    }
    expect(accepted).toBe(registries.length * 2);
  });

  test("the generated check agrees with TypeBox on policy documents", () => {
    const docs = [
      {
        schema_version: 1,
        revision: 3,
        user: { "bundle:a-1": { state: "enabled", config: { x: [1] }, components: { "bundle:a-1:ui:x": "disabled" } } },
        projects: { "/p": { "bundle:a-1": {} }, "C:\\p": {} },
      },
      { schema_version: 1, revision: 0 },
      { schema_version: 1, revision: 0, projects: { "relative/dir": {} } },
      { schema_version: 1, revision: 0, user: { "bundle:a-1": { state: "on" } } },
      { schema_version: 1, revision: 0, user: { "bad key": {} } },
      { schema_version: 1, revision: 1.5 },
    ];
    const verdicts = docs.map((doc) => generated.Policy.check(doc));
    expect(verdicts).toEqual(docs.map((doc) => Value.Check(diskTypeboxSchema("Policy") as any, doc)));
    expect(verdicts).toEqual([true, true, false, false, false, false]);
  });
});
