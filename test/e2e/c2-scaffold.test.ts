/**
 * `gjc plugin scaffold list|apply` through the real CLI: an explicit target, every conflict
 * listed before anything is written, never an overwrite, bytes copied as installed (nothing
 * runs), a stage beside the target moved in by rename, and a kill at any point leaving the
 * target as before once the next (real, not dry-run) apply has swept the leftovers.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { snapshotTree, writeTree } from "../helpers/tmp.ts";
import { c2HomesPerTest, installBundle, type C2Home } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();
const SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
/** The temp root without HOME (bun keeps its own transpiler cache there). */
const snap = (h: C2Home) =>
  Object.fromEntries(Object.entries(snapshotTree(h.root)).filter(([k]) => !k.startsWith("home/")));
const errorOf = (r: { stderr: string }) =>
  JSON.parse(r.stderr.split("\n").find((l) => l.startsWith('{"error"'))!).error;

async function officeHome(): Promise<{ h: C2Home; run: (...args: string[]) => ReturnType<typeof runCli> }> {
  const h = home();
  const src = join(h.root, "office-src");
  writeTree(src, {
    "plugin.json": {
      $schema: SCHEMA,
      name: "office",
      version: "1.0.0",
      extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
    },
    "scaffolds/report/scaffold.json": { name: "Status report", description: "A weekly report." },
    "scaffolds/report/README.md": "# Report\n",
    "scaffolds/report/docs/guide.md": "Write it weekly.\n",
    // A template script: copied as bytes with its mode, never executed.
    "scaffolds/report/bin/setup.js": {
      content: `require("fs").writeFileSync(${JSON.stringify(join(h.root, "ran"))}, "x");\n`,
      mode: 0o755,
    },
    "templates/web/index.html": "<!doctype html>\n",
  });
  await installBundle(h, src, { trust: false });
  return { h, run: (...args: string[]) => runCli(args, { env: h.env, cwd: h.root }) };
}

describe("gjc plugin scaffold", () => {
  test("list names every scaffold; apply into a new directory writes the installed bytes and modes", async () => {
    const { h, run } = await officeHome();
    const list = await run("plugin", "scaffold", "list", "--json");
    expect(list.exitCode).toBe(0);
    expect(list.json().scaffolds.map((s: any) => [s.name, s.path, s.title, s.files])).toEqual([
      ["report", "scaffolds/report", "Status report", 3],
      ["web", "templates/web", "web", 1],
    ]);
    expect(list.json().scaffolds[0].id).toMatch(/^office-[0-9a-f]{8}:scaffold:scaffolds-report-[0-9a-f]{8}$/);
    expect((await run("plugin", "scaffold", "list", "office")).stdout).toContain(
      'office/report "Status report"  3 files',
    );

    const dry = await run("plugin", "scaffold", "apply", "office/report", "out", "--dry-run", "--json");
    expect(dry.exitCode).toBe(0);
    expect(dry.json()).toMatchObject({
      schema: "gjc/plugin-scaffold-apply@1",
      dryRun: true,
      written: false,
      createdTarget: true,
    });
    expect(existsSync(join(h.root, "out"))).toBe(false);

    const applied = await run("plugin", "scaffold", "apply", "office/report", "out", "--json");
    expect(applied.exitCode).toBe(0);
    expect(applied.json()).toMatchObject({ written: true, createdTarget: true, target: join(h.root, "out") });
    expect(snapshotTree(join(h.root, "out"))).toMatchObject({
      "README.md": expect.stringMatching(/^file:644:/),
      "bin/setup.js": expect.stringMatching(/^file:755:/),
      "docs/guide.md": expect.any(String),
    });
    expect(Object.keys(snapshotTree(join(h.root, "out")))).not.toContain("scaffold.json");
    expect(readFileSync(join(h.root, "out/README.md"), "utf8")).toBe("# Report\n");
    expect(existsSync(join(h.root, "ran"))).toBe(false); // no template code ran
    expect(readdirSync(h.root).filter((n) => n.includes(".scaffold-"))).toEqual([]); // stage gone
    // Container-qualified name works too, and applying into an existing dir merges.
    mkdirSync(join(h.root, "site"));
    writeFileSync(join(h.root, "site/keep.txt"), "mine\n");
    expect((await run("plugin", "scaffold", "apply", "office/templates/web", "site")).exitCode).toBe(0);
    expect(readdirSync(join(h.root, "site")).sort()).toEqual(["index.html", "keep.txt"]);
  });

  test("every conflict is listed and nothing is written; nothing is ever overwritten", async () => {
    const { h, run } = await officeHome();
    const target = join(h.root, "busy");
    writeTree(target, {
      "readme.md": "mine\n",
      docs: "a file where a directory is needed\n",
      "bin/setup.js": "mine\n",
      "other.txt": "keep\n",
    });
    const before = snap(h);
    const r = await run("plugin", "scaffold", "apply", "office/report", "busy", "--json");
    expect(r.exitCode).toBe(1);
    const e = errorOf(r);
    expect(e.code).toBe("scaffold_conflict");
    expect(e.message).toContain("3 conflicting paths");
    for (const p of ["README.md (case collision with readme.md)", "docs (not a directory)", "bin/setup.js (exists)"])
      expect(e.message).toContain(p);
    expect(snap(h)).toEqual(before);
    const human = await run("plugin", "scaffold", "apply", "office/report", "busy");
    expect(human.exitCode).toBe(1);
    expect(human.stderr).toContain("bin/setup.js (exists)");
  });

  test("links in the way, drifted installed bytes, a disabled bundle and bad names are refused with nothing written", async () => {
    const { h, run } = await officeHome();
    const outside = join(h.root, "outside");
    mkdirSync(outside);
    mkdirSync(join(h.root, "t"));
    symlinkSync(outside, join(h.root, "t", "docs"));
    symlinkSync(outside, join(h.root, "linked"));
    const before = snap(h);
    const viaLink = await run("plugin", "scaffold", "apply", "office/report", "t", "--json");
    expect(viaLink.exitCode).toBe(3);
    expect(errorOf(viaLink)).toMatchObject({ code: "unsafe_path" });
    expect(errorOf(viaLink).message).toContain("docs (symlink)");
    const linkTarget = await run("plugin", "scaffold", "apply", "office/report", "linked", "--json");
    expect(linkTarget.exitCode).toBe(3);
    expect(readdirSync(outside)).toEqual([]);
    expect(snap(h)).toEqual(before);

    expect(errorOf(await run("plugin", "scaffold", "apply", "office/nope", "x", "--json"))).toMatchObject({
      code: "unknown_scaffold",
    });
    expect((await run("plugin", "scaffold", "apply", "office", "x", "--json")).exitCode).toBe(2);
    expect(errorOf(await run("plugin", "scaffold", "apply", "office/web", "no/such/parent", "--json"))).toMatchObject({
      code: "missing_directory",
    });

    // Drift in the installed copy: refused, never copied.
    const id = (await run("plugin", "list", "--json")).json().bundles.find((b: { family: string }) => b.family === "c2")
      .c2.id;
    writeFileSync(join(h.dataDir, "plugins", id, "bundle", "scaffolds/report/README.md"), "tampered\n");
    const drift = await run("plugin", "scaffold", "apply", "office/report", "fresh", "--json");
    expect(drift.exitCode).toBe(3);
    expect(errorOf(drift).code).toBe("runtime_mismatch");
    expect(existsSync(join(h.root, "fresh"))).toBe(false);

    expect((await run("plugin", "disable", "office")).exitCode).toBe(0);
    const off = await run("plugin", "scaffold", "apply", "office/web", "fresh", "--json");
    expect(off.exitCode).toBe(3);
    expect(errorOf(off).code).toBe("plugin_disabled");
    // Outside the store and its history (which the tampering and the disable changed), nothing appeared.
    const outsideStore = (t: Record<string, string>) =>
      Object.keys(t)
        .filter((k) => !k.startsWith("c2/") && !k.startsWith("plugins-history"))
        .sort();
    expect(outsideStore(snap(h))).toEqual(outsideStore(before));
    expect(existsSync(join(h.root, "fresh"))).toBe(false);
  });

  test("a kill while staging or moving leaves the target as before once the next apply sweeps it", async () => {
    const { h, run } = await officeHome();
    const kill = (step: string, target: string) =>
      runCli(["plugin", "scaffold", "apply", "office/report", target], {
        env: { ...h.env, GJC_TEST_CRASH_AT: step },
        cwd: h.root,
      });

    // A new target: killed before its one rename, there is no target at all.
    expect((await kill("scaffold:before-rename", "new")).exitCode).not.toBe(0);
    expect(existsSync(join(h.root, "new"))).toBe(false);
    expect(readdirSync(h.root).filter((n) => n.startsWith(".new.scaffold-"))).toHaveLength(1);
    expect((await kill("scaffold:staging-half", "new")).exitCode).not.toBe(0);
    expect(existsSync(join(h.root, "new"))).toBe(false);

    // An existing target: killed after the first unit moved in; the next apply undoes it first.
    const target = join(h.root, "existing");
    writeTree(target, { "docs/old.md": "old\n" });
    const before = snapshotTree(target);
    expect((await kill("scaffold:moved-one", "existing")).exitCode).not.toBe(0);
    const partial = snapshotTree(target);
    expect(partial).not.toEqual(before); // partial until swept
    // A dry run changes nothing, not even a leftover: the unit moved in shows as a conflict.
    const dry = await run("plugin", "scaffold", "apply", "office/report", "existing", "--dry-run", "--json");
    expect({ exit: dry.exitCode, code: errorOf(dry).code }).toEqual({ exit: 1, code: "scaffold_conflict" });
    expect(snapshotTree(target)).toEqual(partial);
    expect(readdirSync(h.root).filter((n) => n.startsWith(".existing.scaffold-"))).toHaveLength(1);
    // The next real apply undoes the killed one first (its stage is removed), then applies.
    expect((await run("plugin", "scaffold", "apply", "office/report", "existing")).exitCode).toBe(0);
    expect(readdirSync(h.root).filter((n) => n.startsWith(".existing.scaffold-"))).toEqual([]);
    expect(readdirSync(join(target, "docs")).sort()).toEqual(["guide.md", "old.md"]);
    expect((await run("plugin", "scaffold", "apply", "office/report", "new")).exitCode).toBe(0);
    expect(readdirSync(h.root).filter((n) => n.includes(".scaffold-"))).toEqual([]);
    expect(statSync(join(h.root, "new/bin/setup.js")).mode & 0o777).toBe(0o755);
  });
});
