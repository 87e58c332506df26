/**
 * Issue #12, class 11: validate and install agree on pathological input (deeply nested JSON,
 * huge manifests, numbers a double cannot hold), with the same refusal code, never exit 70,
 * and install leaves nothing behind.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { snapshotTree } from "../helpers/tmp.ts";

const box = sandboxPerTest("gjc-patho-");
const C2_HEAD = { $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", name: "a", version: "1.0.0" };
const SKILL = "---\nname: a\ndescription: b\n---\nbody\n";
const deepArray = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
const gjcHead = '{"kind":"gajae-code-plugin","name":"a","version":"1.0.0"';
const c2Manifest = (codetwo: string, extra = "") =>
  `${JSON.stringify(C2_HEAD).slice(0, -1)}${extra},"extensions":{"dev.codetwo":${codetwo}}}`;

const CASES: [string, Record<string, string>, string][] = [
  [
    "GJC manifest nested 200,000 deep",
    { "gajae-plugin.json": `${gjcHead},"x":${deepArray(200_000)}}` },
    "invalid_manifest",
  ],
  [
    "GJC mcps nested 50,000 deep",
    {
      "gajae-plugin.json": `${gjcHead},"mcps":{"a":{"transport":"stdio","command":"node","args":["s.js"],"env":${deepObject(50_000)}}}}`,
      "s.js": "",
    },
    "invalid_manifest",
  ],
  [
    "GJC number 1e400",
    {
      "gajae-plugin.json": `${gjcHead},"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","maximum":1e400}}]}`,
    },
    "invalid_manifest",
  ],
  [
    "C2 manifest nested 200,000 deep",
    {
      "plugin.json": c2Manifest('{"standardVersion":"1.2.0"}', `,"x":${deepArray(200_000)}`),
      "skills/a/SKILL.md": SKILL,
    },
    "invalid_manifest",
  ],
  [
    "C2 mcp.json nested 200,000 deep",
    {
      "plugin.json": c2Manifest('{"standardVersion":"1.2.0"}'),
      "mcp.json": `{"mcpServers":{"a":{"type":"stdio","command":"./x","args":${deepArray(200_000)}}}}`,
      "skills/a/SKILL.md": SKILL,
    },
    "invalid_mcp",
  ],
  [
    "C2 argsSchema number 1e400",
    {
      "plugin.json": c2Manifest(
        '{"standardVersion":"1.2.0","commands":[{"id":"a.b","title":"t","argsSchema":{"type":"object","maxProperties":1e400}}],"runtime":{"command":"node","args":["r.mjs"]}}',
      ),
      "r.mjs": "",
    },
    "invalid_manifest",
  ],
  [
    "C2 manifest over the 4 MiB file limit",
    { "plugin.json": `${JSON.stringify(C2_HEAD).slice(0, -1)},"description":"${"x".repeat(5 * 1024 * 1024)}"}` },
    "file_too_large",
  ],
];

function codes(doc: any): string[] {
  const diagnostics = doc.diagnostics ?? doc.error?.details?.diagnostics ?? [];
  return [...new Set<string>(diagnostics.filter((d: any) => d.severity === "error").map((d: any) => d.code))].sort();
}

describe("pathological input: validate and install agree", () => {
  for (const [name, files, code] of CASES) {
    test(name, async () => {
      const s = box();
      const root = s.root;
      const bundle = s.write("bundle", files);
      const validated = await s.gjc(["plugin", "validate", bundle, "--json"], { cwd: root });
      expect(validated.exitCode).toBe(1);
      const v = codes(validated.json());
      expect(v).toContain(code);
      const before = snapshotTree(root);
      const installed = await s.gjc(["plugin", "install", bundle, "--user", "--json"], { cwd: root });
      expect(installed.exitCode).not.toBe(70);
      expect(installed.exitCode).not.toBe(0);
      const doc = installed.json();
      expect(v).toContain(doc.error.code);
      expect(codes(doc)).toEqual(v);
      // Nothing installed and nothing left: the tree is as before (the private scratch parent in the cache dir aside).
      const after = Object.fromEntries(
        Object.entries(snapshotTree(root)).filter(([k]) => !k.startsWith("home/.cache")),
      );
      expect(after).toEqual(before);
      expect(existsSync(s.user)).toBe(false);
    });
  }
});
