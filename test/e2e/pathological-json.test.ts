/**
 * Issue #12, class 11: validate and install agree on pathological input (deeply nested JSON,
 * huge manifests, numbers a double cannot hold), with the same refusal code, never exit 70,
 * and install leaves nothing behind.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { snapshotTree, tempDirsPerTest, writeTree } from "../helpers/tmp.ts";

const fresh = tempDirsPerTest("gjc-patho-");
const C2_HEAD = { $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", name: "a", version: "1.0.0" };
const SKILL = "---\nname: a\ndescription: b\n---\nbody\n";
const deepArray = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
const gjcHead = '{"kind":"gajae-code-plugin","name":"a","version":"1.0.0"';
const c2Manifest = (codetwo: string, extra = "") => `${JSON.stringify(C2_HEAD).slice(0, -1)}${extra},"extensions":{"dev.codetwo":${codetwo}}}`;

const CASES: [string, Record<string, string>, string][] = [
  ["GJC manifest nested 200,000 deep", { "gajae-plugin.json": `${gjcHead},"x":${deepArray(200_000)}}` }, "invalid_manifest"],
  ["GJC mcps nested 50,000 deep", { "gajae-plugin.json": `${gjcHead},"mcps":{"a":{"transport":"stdio","command":"node","args":["s.js"],"env":${deepObject(50_000)}}}}`, "s.js": "" }, "invalid_manifest"],
  ["GJC number 1e400", { "gajae-plugin.json": `${gjcHead},"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","maximum":1e400}}]}` }, "invalid_manifest"],
  ["C2 manifest nested 200,000 deep", { "plugin.json": c2Manifest('{"standardVersion":"1.2.0"}', `,"x":${deepArray(200_000)}`), "skills/a/SKILL.md": SKILL }, "invalid_manifest"],
  ["C2 mcp.json nested 200,000 deep", { "plugin.json": c2Manifest('{"standardVersion":"1.2.0"}'), "mcp.json": `{"mcpServers":{"a":{"type":"stdio","command":"./x","args":${deepArray(200_000)}}}}`, "skills/a/SKILL.md": SKILL }, "invalid_mcp"],
  ["C2 argsSchema number 1e400", { "plugin.json": c2Manifest('{"standardVersion":"1.2.0","commands":[{"id":"a.b","title":"t","argsSchema":{"type":"object","maxProperties":1e400}}],"runtime":{"command":"node","args":["r.mjs"]}}'), "r.mjs": "" }, "invalid_manifest"],
  ["C2 manifest over the 4 MiB file limit", { "plugin.json": `${JSON.stringify(C2_HEAD).slice(0, -1)},"description":"${"x".repeat(5 * 1024 * 1024)}"}` }, "file_too_large"],
];

function codes(doc: any): string[] {
  const diagnostics = doc.diagnostics ?? doc.error?.details?.diagnostics ?? [];
  return [...new Set<string>(diagnostics.filter((d: any) => d.severity === "error").map((d: any) => d.code))].sort();
}

describe("pathological input: validate and install agree", () => {
  for (const [name, files, code] of CASES) {
    test(name, async () => {
      const root = fresh();
      const bundle = join(root, "bundle");
      writeTree(bundle, files);
      const env = { HOME: join(root, "home"), GJC_USER_DIR: join(root, "home", "gjc"), GJC_C2_DATA_DIR: join(root, "home", "c2"), TMPDIR: root, BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" };
      const validated = await runCli(["plugin", "validate", bundle, "--json"], { env, cwd: root });
      expect(validated.exitCode).toBe(1);
      const v = codes(validated.json());
      expect(v).toContain(code);
      const before = snapshotTree(root);
      const installed = await runCli(["plugin", "install", bundle, "--user", "--json"], { env, cwd: root });
      expect(installed.exitCode).not.toBe(70);
      expect(installed.exitCode).not.toBe(0);
      const doc = installed.json();
      expect(v).toContain(doc.error.code);
      expect(codes(doc)).toEqual(v);
      // Nothing installed and nothing left: the tree is as before (the private scratch parent aside).
      const scratch = `gjc-${process.getuid?.() ?? "user"}`;
      const after = Object.fromEntries(Object.entries(snapshotTree(root)).filter(([k]) => k !== scratch));
      expect(after).toEqual(before);
      expect(existsSync(env.GJC_USER_DIR)).toBe(false);
    });
  }
});
