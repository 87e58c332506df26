import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { snapshotTree, tempDirsPerTest } from "../helpers/tmp.ts";

const fresh = tempDirsPerTest();
const catalog = join(fixturesDir, "catalogs", "valid-local-and-remote");
const envFor = (base: string) => ({ HOME: join(base, "home"), GJC_USER_DIR: join(base, "user"), GJC_C2_DATA_DIR: join(base, "c2"), TMPDIR: join(base, "tmp") });

describe("gjc marketplace list", () => {
  test("lists valid entries with their source, says which cannot be installed, and marks installed ones", async () => {
    const base = fresh();
    const env = envFor(base);
    const before = await runCli(["marketplace", "list", catalog, "--json"], { env });
    expect(before.exitCode).toBe(0);
    const doc = before.json();
    expect(doc.schema).toBe("gjc/marketplace-list@1");
    expect(doc.name).toBe("fixture-catalog");
    const byName = Object.fromEntries(doc.entries.map((e: { name: string }) => [e.name, e]));
    expect(byName["npm-plugin"]).toMatchObject({ installable: false, installed: null });
    expect(byName["notes-skills"]).toMatchObject({ installable: true, installed: null, source: "local ./plugins/notes-skills" });
    expect((await runCli(["plugin", "install", `notes-skills@${catalog}`], { env })).exitCode).toBe(0);
    const after = (await runCli(["marketplace", "list", catalog, "--json"], { env })).json();
    const notes = after.entries.find((e: { name: string }) => e.name === "notes-skills");
    expect(notes.installed).toMatchObject({ version: "0.3.1", enabled: true, trusted: false });
  });

  test("an invalid catalog is refused with its code and a hint to validate; nothing is written", async () => {
    const base = fresh();
    const env = envFor(base);
    const r = await runCli(["marketplace", "list", join(fixturesDir, "catalogs", "invalid-catalog-not-object"), "--json"], { env });
    expect(r.exitCode).toBe(1);
    expect(r.json().error.code).toBe("invalid_catalog");
    expect(r.json().error.hint).toContain("gjc marketplace validate");
    expect(snapshotTree(env.GJC_C2_DATA_DIR)).toEqual({});
    const missing = await runCli(["marketplace", "list", join(base, "nope")], { env });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("missing_catalog");
  });
});
