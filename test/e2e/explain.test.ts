import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";
import { snapshotTree, writeTree } from "../helpers/tmp.ts";

const docsDir = join(repoRoot, "docs", "errors");
const pageCount = readdirSync(docsDir).filter((f) => f.endsWith(".md")).length;
const box = sandbox("gjc-explain-e2e-");
afterAll(() => box.cleanup());
const run = (args: string[], cwd = box.root) => box.gjc(args, { cwd });

/** The codes a human run names: `error[code]` on stderr, `[code]` in diagnostics, `see: gjc explain code`. */
function codesNamed(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\[([a-z][a-z0-9_.]*)\]/g)) found.add(m[1]);
  for (const m of text.matchAll(/see: gjc explain ([a-z][a-z0-9_.]*)/g)) found.add(m[1]);
  return [...found];
}

describe("gjc explain", () => {
  test("prints the page of a code (exit 0), the same bytes as docs/errors/<code>.md", async () => {
    const r = await run(["explain", "invalid_manifest"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(docsDir, "invalid_manifest.md"), "utf8"));
    expect(r.stderr).toBe("");
  });

  test("--json gives schema, code, summary and text", async () => {
    const r = await run(["explain", "runtime.requires_trust", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc.schema).toBe("gjc/explain@1");
    expect(doc.code).toBe("runtime.requires_trust");
    expect(doc.summary).toBe("The C2 bundle ships a process runtime, which runs only after you trust the plugin.");
    expect(doc.text.startsWith("# runtime.requires_trust\n")).toBe(true);
  });

  test("--list names every code with its summary, human and --json", async () => {
    const human = await run(["explain", "--list"]);
    expect(human.exitCode).toBe(0);
    const lines = human.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(pageCount);
    expect(lines.find((l) => l.startsWith("security_policy "))).toContain("Refused by a security rule");
    const json = await run(["explain", "--list", "--json"]);
    expect(json.exitCode).toBe(0);
    const doc = json.json();
    expect(doc.schema).toBe("gjc/explain@1");
    expect(doc.codes).toHaveLength(pageCount);
    expect(doc.codes[0]).toEqual({ code: expect.any(String), summary: expect.any(String) });
  });

  test("an unknown code is a usage error (exit 2) with did-you-mean, and writes nothing", async () => {
    writeTree(box.root, { "keep.txt": "x" });
    const before = snapshotTree(box.root);
    const r = await run(["explain", "invalid_manfest"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error[unknown_code]");
    expect(r.stderr).toContain('Did you mean "invalid_manifest"?');
    expect(r.stderr).toContain("see: gjc explain unknown_code");
    const j = await run(["explain", "invalid_manfest", "--json"]);
    expect(j.exitCode).toBe(2);
    expect(j.json()).toMatchObject({ schema: "gjc/explain@1", ok: false, error: { code: "unknown_code" } });
    expect(JSON.parse(j.stderr.trim())).toMatchObject({ error: { code: "unknown_code" } });
    expect(j.stderr).not.toContain("see:");
    expect(snapshotTree(box.root)).toEqual(before);
  });

  test("no code, or a code with --list, is a usage error", async () => {
    const none = await run(["explain"]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain("error[missing_argument]");
    const both = await run(["explain", "usage", "--list"]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain("error[unexpected_argument]");
  });
});

describe("every hint names its code", () => {
  test("a refused command prints 'see: gjc explain <code>' after the hint, and that page exists", async () => {
    const r = await run(["plugin", "validate", join(box.root, "no-such-bundle")]);
    expect(r.exitCode).toBe(2);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines[0]).toStartWith("error[not_found]:");
    expect(lines[1]).toStartWith("  hint: ");
    expect(lines[2]).toBe("  see: gjc explain not_found");
    const page = await run(["explain", "not_found"]);
    expect(page.exitCode).toBe(0);
  });

  test("validation diagnostics show [code] and a see line; every code shown has a page", async () => {
    const bundle = writeTree(join(box.root, "broken"), {
      "gajae-plugin.json": JSON.stringify({
        kind: "claude-plugin",
        name: "demo",
        version: "1.0.0",
        skills: ["x"],
        tools: [{ name: "t", path: "tools/missing.ts" }],
      }),
    });
    const r = await run(["plugin", "validate", bundle]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("[invalid_kind]");
    expect(r.stdout).toContain("[forbidden_surface]");
    expect(r.stdout).toContain("see: gjc explain <code>");
    const codes = codesNamed(r.stdout);
    expect(codes.length).toBeGreaterThanOrEqual(3);
    for (const code of codes) {
      const page = await run(["explain", code]);
      expect({ code, exit: page.exitCode }).toEqual({ code, exit: 0 });
    }
  });

  test("a usage error from argument parsing names its code too", async () => {
    const r = await run(["plugin", "validate", ".", "--stirct"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error[unknown_option]");
    expect(r.stderr).toContain("see: gjc explain unknown_option");
  });
});
