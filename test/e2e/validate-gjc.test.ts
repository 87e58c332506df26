import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir, repoRoot } from "../helpers/cli.ts";
import { sandboxPerTest, type Sandbox } from "../helpers/sandbox.ts";
import { snapshotTree, writeTree, tempDirsPerTest } from "../helpers/tmp.ts";

const fresh = tempDirsPerTest("gjc-e2e-validate-");
const sha = (s: string | Uint8Array) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const fixture = (name: string) => join(fixturesDir, "gjc", name);
const box = sandboxPerTest("gjc-e2e-validate-home-");
/** What gjc wrote into the sandbox's HOME (user scope and C2 data dir included); Bun's own transpiler cache (~/.bun) is not ours. */
const homeWrites = (s: Sandbox) =>
  Object.keys(snapshotTree(s.home)).filter((p) => p !== ".bun" && !p.startsWith(".bun/"));

/** The CLI in a sandbox, so nothing of the real user can be read or written (run from the repository, as before). */
function cli(args: string[], s: Sandbox = box()) {
  return s.gjc(args, { cwd: repoRoot });
}

describe("gjc plugin validate <gjc bundle>", () => {
  test("a valid bundle: exit 0, --json with family gjc, surfaces and the files that would be copied", async () => {
    const home = box();
    const r = await cli(["plugin", "validate", fixture("valid-six-surfaces"), "--json"], home);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc).toMatchObject({
      schema: "gjc/validate@1",
      ok: true,
      family: "gjc",
      name: "fixture-bundle",
      version: "1.0.0",
      target: fixture("valid-six-surfaces"),
      diagnostics: [],
    });
    expect(doc.surfaces).toEqual([
      { id: "subskill:ralplan:architect:design", kind: "subskill", enabledByDefault: true },
      { id: "tool:domain_note", kind: "tool", enabledByDefault: true },
      { id: "hook:tool_call:before:read:audit-read", kind: "hook", enabledByDefault: true },
      { id: "mcp:domain_docs", kind: "mcp", enabledByDefault: true },
      { id: "system-appendix:fixture-bundle:domain-policy", kind: "system-appendix", enabledByDefault: true },
      { id: "agent-appendix:executor:fixture-bundle:domain-executor", kind: "agent-appendix", enabledByDefault: true },
    ]);
    expect(doc.files[0].path).toBe("gajae-plugin.json");
    for (const f of doc.files) {
      const bytes = readFileSync(join(fixture("valid-six-surfaces"), f.path));
      expect(f).toEqual({ path: f.path, sha256: sha(bytes), bytes: bytes.length });
    }
    expect(homeWrites(home)).toEqual([]);
  });

  test("frontmatter YAML takes nothing from the environment: LOG_TOKENS and LOG_STREAM leave --json byte for byte", async () => {
    const home = box();
    for (const bundle of [fixture("valid-six-surfaces"), join(repoRoot, "fixtures", "examples", "notes-skills")]) {
      const plain = await cli(["plugin", "validate", bundle, "--json"], home);
      const noisy = await home.gjc(["plugin", "validate", bundle, "--json"], {
        cwd: repoRoot,
        env: { LOG_TOKENS: "1", LOG_STREAM: "1" },
      });
      expect(plain.exitCode).toBe(0);
      expect(noisy.exitCode).toBe(0);
      expect(noisy.stdout).toBe(plain.stdout);
      expect(noisy.stderr).toBe(plain.stderr);
    }
  });

  test("human output lists surfaces and files", async () => {
    const r = await cli(["plugin", "validate", fixture("valid-six-surfaces")]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("✓ valid gjc bundle fixture-bundle 1.0.0");
    expect(r.stdout).toContain("surfaces 6");
    expect(r.stdout).toContain("mcp:domain_docs");
    expect(r.stdout).toContain("files 7");
    expect(r.stdout).toContain("tools/domain-note.ts");
    expect(r.stderr).toBe("");
  });

  test("the manifest file itself may be named", async () => {
    const r = await cli(["plugin", "validate", join(fixture("valid-empty"), "gajae-plugin.json"), "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json()).toMatchObject({ family: "gjc", ok: true, surfaces: [], files: [{ path: "gajae-plugin.json" }] });
  });

  test("an invalid bundle: exit 1, every diagnostic, no surfaces or files listed, nothing written", async () => {
    const home = box();
    const before = snapshotTree(fixture("precedence-many"));
    const r = await cli(["plugin", "validate", fixture("precedence-many"), "--json"], home);
    expect(r.exitCode).toBe(1);
    const doc = r.json();
    expect(doc.ok).toBe(false);
    expect(doc.family).toBe("gjc");
    expect(doc.surfaces).toBeUndefined();
    expect(doc.files).toBeUndefined();
    expect(doc.diagnostics.map((d: { code: string }) => d.code)).toEqual([
      "forbidden_surface",
      "forbidden_surface",
      "unsupported_surface",
      "unsupported_surface",
      "invalid_manifest",
      "invalid_kind",
      "invalid_manifest",
      "invalid_manifest",
      "invalid_manifest",
    ]);
    for (const d of doc.diagnostics)
      expect(Object.keys(d).sort()).toEqual(
        d.hint ? ["code", "hint", "message", "path", "severity"] : ["code", "message", "path", "severity"],
      );
    expect(snapshotTree(fixture("precedence-many"))).toEqual(before);
    expect(homeWrites(home)).toEqual([]);
  });

  test("human output of an invalid bundle shows each code, path, message and hint", async () => {
    const r = await cli(["plugin", "validate", fixture("forbidden-skills")]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("✗ invalid gjc bundle fixture-bundle 1.0.0");
    expect(r.stdout).toContain("[forbidden_surface] gajae-plugin.json#/skills");
    expect(r.stdout).toContain("hint: Bind a sub-skill");
    expect(r.stdout).not.toContain("surfaces");
  });

  test("warnings pass, and fail under --strict", async () => {
    const root = writeTree(fresh(), {
      "gajae-plugin.json": {
        kind: "gajae-code-plugin",
        name: "w",
        version: "1",
        system_appendix: Array.from({ length: 5 }, (_, i) => ({ name: `a${i}`, content: "x".repeat(7000) })),
      },
    });
    const plain = await cli(["plugin", "validate", root, "--json"]);
    expect(plain.exitCode).toBe(0);
    expect(plain.json().diagnostics.map((d: { severity: string }) => d.severity)).toEqual(["warning"]);
    const strict = await cli(["plugin", "validate", root, "--strict", "--json"]);
    expect(strict.exitCode).toBe(1);
  });

  test("usage errors exit 2", async () => {
    const home = box();
    const missing = await cli(["plugin", "validate"], home);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("missing_argument");
    const unknown = await cli(["plugin", "validate", fixture("valid-empty"), "--strcit"], home);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('Did you mean "--strict"?');
    const nowhere = await cli(["plugin", "validate", join(home.root, "nope"), "--json"], home);
    expect(nowhere.exitCode).toBe(2);
  });

  test("gajae-plugin.json is detected before plugin.json; Claude-style folders are never read or listed", async () => {
    const root = fresh();
    cpSync(fixture("valid-mixed-claude-root"), root, { recursive: true });
    const outside = writeTree(fresh(), { secret: "s3cret" });
    // Reading any of these would fail (a FIFO is refused, a link is refused) or leak: none may be touched.
    execFileSync("mkfifo", [join(root, "skills", "standalone", "fifo")]);
    execFileSync("mkfifo", [join(root, ".claude-plugin", "fifo")]);
    symlinkSync(join(outside, "secret"), join(root, "agents", "leak.md"));
    symlinkSync(outside, join(root, "commands", "outside"));
    const r = await cli(["plugin", "validate", root, "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc.family).toBe("gjc");
    expect(doc.files.map((f: { path: string }) => f.path)).toEqual([
      "gajae-plugin.json",
      "subskills/critic-check/SKILL.md",
      "tools/checker.ts",
    ]);
    for (const word of [
      "standalone",
      "reviewer",
      "deploy",
      "leak",
      "outside",
      ".claude-plugin",
      "hooks.json",
      ".mcp.json",
      '"plugin.json"',
      "claude-side",
      "s3cret",
    ]) {
      expect(r.stdout).not.toContain(word);
    }
  });

  test("hostile names are never echoed raw to the terminal", async () => {
    const root = writeTree(fresh(), {
      "gajae-plugin.json": {
        kind: "gajae-code-plugin",
        name: "\u001b[2J\u001b[31mpwned",
        version: "1",
        "\u001b]0;title\u0007": 1,
      },
    });
    const r = await cli(["plugin", "validate", root]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).not.toContain("\u001b");
    expect(r.stdout).not.toContain("\u0007");
  });
});

describe("validating never imports or runs a bundle file", () => {
  const loader = (name: string) =>
    `import { writeFileSync } from "node:fs";\nimport { join } from "node:path";\nwriteFileSync(join(import.meta.dir, "..", "..", "SENTINEL-${name}"), "loaded");\nexport default function factory() { return { name: "${name}" }; }\n`;

  function sentinelBundle(): { parent: string; root: string } {
    const parent = fresh();
    const root = writeTree(join(parent, "bundle"), {
      "gajae-plugin.json": {
        kind: "gajae-code-plugin",
        name: "sentinel",
        version: "1.0.0",
        subskills: ["subskills/s/SKILL.md"],
        tools: [{ name: "tool", path: "tools/tool.ts" }, "tools/scoped.ts"],
        hooks: [{ name: "hook", event: "session_start", path: "hooks/hook.ts" }],
        mcps: [
          { name: "server", transport: "stdio", command: "bun", args: ["mcp/server.ts"] },
          { name: "native", transport: "stdio", command: "./mcp/native" },
        ],
      },
      "subskills/s/SKILL.md":
        "---\nname: s\ndescription: d\nbinds_to: ralplan\nphase: planner\nactivation_arg: s\ntools: [tools/fm.ts]\n---\nBody\n",
      "tools/tool.ts": loader("tool"),
      "tools/scoped.ts": loader("scoped"),
      "tools/fm.ts": loader("fm"),
      "hooks/hook.ts": loader("hook"),
      "mcp/server.ts": loader("server"),
      "mcp/native": { content: `#!/bin/sh\necho loaded > "$(dirname "$0")/../../SENTINEL-native"\n`, mode: 0o755 },
      // A bunfig preload and a package.json script would also run code if anything loaded the bundle with bun.
      "bunfig.toml": 'preload = ["./tools/tool.ts"]\n',
      "package.json": JSON.stringify({ name: "x", scripts: { prepare: "sh mcp/native" } }),
    });
    return { parent, root };
  }
  const sentinels = (parent: string) =>
    ["tool", "scoped", "fm", "hook", "server", "native"].filter((n) => existsSync(join(parent, `SENTINEL-${n}`)));

  test("the sentinel files do fire when the bundle's code is actually run (the check below can fail)", () => {
    const { parent, root } = sentinelBundle();
    for (const f of ["tools/tool.ts", "tools/scoped.ts", "tools/fm.ts", "hooks/hook.ts", "mcp/server.ts"])
      execFileSync(process.execPath, [join(root, f)], { cwd: parent });
    execFileSync(join(root, "mcp", "native"));
    expect(sentinels(parent)).toEqual(["tool", "scoped", "fm", "hook", "server", "native"]);
  });

  test("validate (human and --json) leaves no sentinel and changes nothing", async () => {
    const { parent, root } = sentinelBundle();
    const before = snapshotTree(parent);
    const home = box();
    const human = await cli(["plugin", "validate", root], home);
    expect(human.exitCode).toBe(0);
    const json = await cli(["plugin", "validate", root, "--json"], home);
    expect(json.exitCode).toBe(0);
    expect(json.json().surfaces.map((s: { id: string }) => s.id)).toEqual([
      "subskill:ralplan:planner:s",
      "tool:tool",
      "hook:session_start:::hook",
      "mcp:server",
      "mcp:native",
    ]);
    expect(sentinels(parent)).toEqual([]);
    expect(snapshotTree(parent)).toEqual(before);
  });
});
