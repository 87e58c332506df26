/**
 * A parser differential a hostile bundle could use: a key repeated in one object. JSON.parse
 * keeps the last, other readers keep the first, so a reviewer's tool and gjc would read two
 * different manifests. Each bundle-shipped JSON file gjc judges refuses it, with the same code
 * and exit status in validate and install, the repeated member's pointer and line, and install
 * leaves nothing behind. Spelling the twin with an escape (`\u006eame`) is the same key.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { snapshotTree, writeTree } from "../helpers/tmp.ts";
import { skillsBundle } from "../unit/c2store/_bundles.ts";

const box = sandboxPerTest("gjc-dupkeys-");
const SKILL = "---\nname: a\ndescription: b\n---\nbody\n";
const C2_HEAD =
  '"$schema":"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json","version":"1.0.0","extensions":{"dev.codetwo":{"standardVersion":"1.2.0"}}';

// [case, files, code, pointer of the repeated member, its line]
const CASES: [string, Record<string, string>, string, string, number][] = [
  [
    "GJC manifest: name twice",
    {
      "gajae-plugin.json":
        '{"kind":"gajae-code-plugin",\n"name":"shown-to-reviewer",\n"version":"1.0.0",\n"name":"what-gjc-installs"}',
    },
    "invalid_manifest",
    "gajae-plugin.json#/name",
    4,
  ],
  [
    "GJC manifest: a tool's path twice, the twin spelled with an escape",
    {
      "gajae-plugin.json":
        '{"kind":"gajae-code-plugin","name":"a","version":"1.0.0","tools":[{"name":"t","description":"d",\n"path":"tools/ok.ts",\n"p\\u0061th":"tools/evil.ts"}]}',
      "tools/ok.ts": "",
      "tools/evil.ts": "",
    },
    "invalid_manifest",
    "gajae-plugin.json#/tools/0/path",
    3,
  ],
  [
    "C2 manifest: name twice",
    { "plugin.json": `{"name":"a",${C2_HEAD},\n"name":"b"}`, "skills/a/SKILL.md": SKILL },
    "invalid_manifest",
    "plugin.json#/name",
    2,
  ],
  [
    "C2 manifest: dev.codetwo twice",
    {
      "plugin.json": `{"name":"a",${C2_HEAD.slice(0, -1)},\n"dev.codetwo":{"standardVersion":"1.2.0","runtime":{"command":"node","args":["r.mjs"]}}}}`,
      "skills/a/SKILL.md": SKILL,
      "r.mjs": "",
    },
    "invalid_manifest",
    "plugin.json#/extensions/dev.codetwo",
    2,
  ],
  [
    "C2 mcp.json: a server's command twice",
    {
      "plugin.json": `{"name":"a",${C2_HEAD}}`,
      "mcp.json": '{"mcpServers":{"s":{"type":"stdio",\n"command":"./ok",\n"command":"./evil"}}}',
      ok: "",
      evil: "",
      "skills/a/SKILL.md": SKILL,
    },
    "invalid_mcp",
    "mcp.json#/mcpServers/s/command",
    3,
  ],
];

function errors(doc: any): { code: string; path: string; message: string }[] {
  return (doc.diagnostics ?? doc.error?.details?.diagnostics ?? []).filter((d: any) => d.severity === "error");
}

describe("duplicate JSON keys: refused alike by validate and install", () => {
  for (const [name, files, code, path, line] of CASES) {
    test(name, async () => {
      const s = box();
      const bundle = s.write("bundle", files);
      const validated = await s.gjc(["plugin", "validate", bundle, "--json"]);
      expect(validated.exitCode).toBe(1);
      const v = errors(validated.json());
      expect(v.map((d) => [d.code, d.path])).toEqual([[code, path]]);
      expect(v[0].message).toContain(`line ${line}`);
      const human = await s.gjc(["plugin", "validate", bundle]);
      expect(human.exitCode).toBe(1);
      expect(human.stdout + human.stderr).toContain("appears twice");

      const before = snapshotTree(s.root);
      const installed = await s.gjc(["plugin", "install", bundle, "--user", "--json"]);
      expect(installed.exitCode).toBe(1);
      const doc = installed.json();
      expect(doc.error.code).toBe(code);
      expect(errors(doc).map((d) => [d.code, d.path])).toEqual([[code, path]]);
      const after = Object.fromEntries(
        Object.entries(snapshotTree(s.root)).filter(([k]) => !k.startsWith("home/.cache")),
      );
      expect(after).toEqual(before);
      expect(existsSync(s.user)).toBe(false);
      expect(existsSync(join(s.c2, "plugins"))).toBe(false);
    });
  }

  test("marketplace.json: a plugin's source twice is refused by marketplace validate and by name@catalog install alike", async () => {
    const s = box();
    const root = join(s.root, "cat");
    writeTree(join(root, "plugins", "good"), skillsBundle("good"));
    writeTree(join(root, "plugins", "evil"), skillsBundle("good"));
    writeTree(root, {
      "marketplace.json":
        '{"standardVersion":"1.0.0","name":"c","plugins":[{"name":"good","version":"1.0.0",\n"source":{"kind":"local","path":"./plugins/good"},\n"source":{"kind":"local","path":"./plugins/evil"}}]}',
    });
    const validated = await s.gjc(["marketplace", "validate", root, "--json"]);
    expect(validated.exitCode).toBe(1);
    const v = errors(validated.json());
    expect(v.map((d) => [d.code, d.path])).toEqual([["invalid_catalog", "marketplace.json#/plugins/0/source"]]);
    expect(v[0].message).toContain("line 3");
    const before = snapshotTree(s.root);
    const installed = await s.gjc(["plugin", "install", `good@${root}`, "--json"]);
    expect(installed.exitCode).toBe(1);
    expect(installed.json().error.code).toBe("invalid_catalog");
    const after = Object.fromEntries(
      Object.entries(snapshotTree(s.root)).filter(([k]) => !k.startsWith("home/.cache")),
    );
    expect(after).toEqual(before);
  });

  test("the same key in different objects, and an escaped quote that looks like a key are not duplicates", async () => {
    const s = box();
    const bundle = s.write("bundle", {
      "gajae-plugin.json":
        '{"kind":"gajae-code-plugin","name":"a","version":"1.0.0","tools":[{"name":"t","path":"t.ts","description":"\\"name\\": \\"b\\""},{"name":"u","path":"u.ts","description":"d"}]}',
      "t.ts": "",
      "u.ts": "",
    });
    const r = await s.gjc(["plugin", "validate", bundle, "--json"]);
    expect(errors(r.json())).toEqual([]);
    expect(r.exitCode).toBe(0);
  });
});
