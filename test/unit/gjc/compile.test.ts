import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileGjcBundle } from "../../../src/families/gjc/compile.ts";
import { fixturesDir } from "../../helpers/cli.ts";
import { writeTree, tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest("gjc-compile-");
const sha = (s: string | Uint8Array) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const base = { kind: "gajae-code-plugin", name: "demo", version: "1.0.0" };
const SKILL = (parent: string, phase: string, arg: string, extra = "") =>
  `---\nname: ${arg}-skill\ndescription: Helps with ${arg}\nbinds_to: ${parent}\nphase: ${phase}\nactivation_arg: ${arg}\n${extra}---\nBody\n`;
function bundle(spec: Record<string, unknown>, manifest: Record<string, unknown>) {
  return writeTree(fresh(), { ...spec, "gajae-plugin.json": { ...base, ...manifest } } as never);
}
const codes = (r: ReturnType<typeof compileGjcBundle>) => r.diagnostics.map((d) => d.code);

describe("compileGjcBundle: the six-surface fixture", () => {
  const root = join(fixturesDir, "gjc", "valid-six-surfaces");
  const read = (p: string) => readFileSync(join(root, p));

  test("surfaces carry stable ids, kinds, enabled-by-default and the digests of their files", () => {
    const { bundle, diagnostics } = compileGjcBundle(root);
    expect(diagnostics).toEqual([]);
    const b = bundle!;
    expect(b.name).toBe("fixture-bundle");
    expect(b.version).toBe("1.0.0");
    expect(b.manifestSha256).toBe(sha(read("gajae-plugin.json")));
    expect(b.surfaces.map((s) => [s.id, s.kind, s.enabledByDefault])).toEqual([
      ["subskill:ralplan:architect:design", "subskill", true],
      ["tool:domain_note", "tool", true],
      ["hook:tool_call:before:read:audit-read", "hook", true],
      ["mcp:domain_docs", "mcp", true],
      ["system-appendix:fixture-bundle:domain-policy", "system-appendix", true],
      ["agent-appendix:executor:fixture-bundle:domain-executor", "agent-appendix", true],
    ]);
    expect(b.surfaces[0]).toMatchObject({
      parent: "ralplan",
      parentKind: "skill",
      phase: "architect",
      activation_arg: "design",
      name: "design-review",
      path: "subskills/ralplan-design/SKILL.md",
      sha256: sha(read("subskills/ralplan-design/SKILL.md")),
      toolPaths: [],
    });
    expect(b.surfaces[1]).toMatchObject({
      name: "domain_note",
      description: "Record a domain note",
      path: "tools/domain-note.ts",
      sha256: sha(read("tools/domain-note.ts")),
    });
    expect(b.surfaces[2]).toMatchObject({
      event: "tool_call",
      phase: "before",
      target: "read",
      path: "hooks/audit-read.ts",
    });
    expect(b.surfaces[3]).toMatchObject({
      transport: "stdio",
      command: "bun",
      args: ["mcp/domain-docs.ts"],
      cwd: ".",
      url: null,
      launcher: { kind: "bun", script: "mcp/domain-docs.ts", executable: null, cwd: null },
    });
    expect(b.surfaces[3].configSha256).toBe(
      sha(
        JSON.stringify({
          name: "domain_docs",
          transport: "stdio",
          command: "bun",
          args: ["mcp/domain-docs.ts"],
          cwd: ".",
          url: null,
        }),
      ),
    );
    expect(b.surfaces[4]).toMatchObject({
      plugin: "fixture-bundle",
      agent: null,
      source: "file",
      path: "prompts/system-appendix.md",
      content: null,
      sha256: sha(read("prompts/system-appendix.md")),
    });
    expect(b.surfaces[5]).toMatchObject({ agent: "executor", name: "domain-executor" });
  });

  test("the copy plan is the manifest first, then every declared file by path, with the hashed bytes", () => {
    const { bundle } = compileGjcBundle(root, { keepContents: true });
    const b = bundle!;
    expect(b.files.map((f) => f.path)).toEqual([
      "gajae-plugin.json",
      "hooks/audit-read.ts",
      "mcp/domain-docs.ts",
      "prompts/executor-appendix.md",
      "prompts/system-appendix.md",
      "subskills/ralplan-design/SKILL.md",
      "tools/domain-note.ts",
    ]);
    for (const f of b.files) {
      const bytes = read(f.path);
      expect(f).toEqual({ path: f.path, sha256: sha(bytes), bytes: bytes.length, mode: 0o644 });
      expect(Buffer.from(b.contents!.get(f.path)!).equals(bytes)).toBe(true);
    }
    expect(compileGjcBundle(root).bundle!.contents).toBeUndefined();
  });

  test("the canonical manifest has a fixed key order and every surface key", () => {
    const m = compileGjcBundle(root).bundle!.manifest;
    expect(Object.keys(m)).toEqual([
      "kind",
      "name",
      "version",
      "subskills",
      "tools",
      "hooks",
      "mcps",
      "system_appendix",
      "agent-appendix",
    ]);
    expect(compileGjcBundle(join(fixturesDir, "gjc", "valid-empty")).bundle!.manifest).toEqual({
      ...base,
      name: "fixture-bundle",
      subskills: [],
      tools: [],
      hooks: [],
      mcps: [],
      system_appendix: [],
      "agent-appendix": [],
    });
  });

  test("compiling twice gives identical output", () => {
    expect(JSON.stringify(compileGjcBundle(root).bundle)).toBe(JSON.stringify(compileGjcBundle(root).bundle));
  });
});

describe("compileGjcBundle: surfaces", () => {
  test("string tools have no surface, are copied, and are scoped to every sub-skill with its own tools", () => {
    const { bundle } = compileGjcBundle(join(fixturesDir, "gjc", "valid-string-tools"));
    expect(bundle!.surfaces.map((s) => s.id)).toEqual(["subskill:ultragoal:active:scoped", "tool:always"]);
    expect(bundle!.surfaces[0].toolPaths).toEqual(["tools/scoped.ts", "tools/extra.ts"]);
    expect(bundle!.files.map((f) => f.path)).toEqual([
      "gajae-plugin.json",
      "subskills/a/SKILL.md",
      "tools/always.ts",
      "tools/extra.ts",
      "tools/scoped.ts",
    ]);
  });

  test("a missing frontmatter tool is missing_file pointing at the SKILL.md", () => {
    const root = bundle(
      { "s/SKILL.md": SKILL("ralplan", "planner", "p", "tools: [tools/ghost.ts]\n") },
      { subskills: ["s/SKILL.md"] },
    );
    const r = compileGjcBundle(root);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([["missing_file", "s/SKILL.md"]]);
  });

  test("declared sha256 values are compared case-insensitively; a mismatch is hash_mismatch on any surface", () => {
    const ok = compileGjcBundle(join(fixturesDir, "gjc", "valid-inline-appendix-sha256"));
    expect(ok.diagnostics).toEqual([]);
    const root = bundle(
      { "h.ts": "hook", "s.ts": "server", "a.md": "text" },
      {
        hooks: [{ name: "h", event: "session_start", path: "h.ts", sha256: sha("other") }],
        mcps: [{ name: "m", transport: "stdio", command: "bun", args: ["s.ts"], sha256: sha("other") }],
        system_appendix: [
          { name: "a", path: "a.md", sha256: sha("other") },
          { name: "b", content: "inline", sha256: sha("inline ") },
        ],
        tools: [{ name: "t", path: "h.ts", sha256: sha("hook").toUpperCase() }],
      },
    );
    const r = compileGjcBundle(root);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["hash_mismatch", "gajae-plugin.json#/hooks/0/sha256"],
      ["hash_mismatch", "gajae-plugin.json#/mcps/0/sha256"],
      ["hash_mismatch", "gajae-plugin.json#/system_appendix/0/sha256"],
      ["hash_mismatch", "gajae-plugin.json#/system_appendix/1/sha256"],
    ]);
    expect(r.diagnostics[0].message).toContain(sha("hook"));
  });

  test("appendix files: 8,192 bytes pass, 8,193 fail; blank and non-UTF-8 files fail", () => {
    const root = bundle(
      {
        "max.md": "é".repeat(4096),
        "over.md": "x".repeat(8193),
        "blank.md": " \n\n",
        "bin.md": new Uint8Array([0xc3, 0x28]),
      },
      {
        system_appendix: [
          { name: "max", path: "max.md" },
          { name: "over", path: "over.md" },
        ],
        "agent-appendix": [
          { agent: "critic", name: "blank", path: "blank.md" },
          { agent: "planner", name: "bin", path: "bin.md" },
        ],
      },
    );
    const r = compileGjcBundle(root);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["invalid_appendix", "gajae-plugin.json#/system_appendix/1/path"],
      ["invalid_appendix", "gajae-plugin.json#/agent-appendix/0/path"],
      ["invalid_appendix", "gajae-plugin.json#/agent-appendix/1/path"],
    ]);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining("8193 bytes"),
      expect.stringContaining("is empty"),
      expect.stringContaining("not UTF-8"),
    ]);
  });

  test("appendices that together exceed the 32 KiB render budget are a warning, not an error", () => {
    const five = Array.from({ length: 5 }, (_, i) => ({ name: `a${i}`, content: "x".repeat(7 * 1024) }));
    const r = compileGjcBundle(bundle({}, { system_appendix: five }));
    expect(r.bundle).toBeDefined();
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([["invalid_appendix", "warning"]]);
    const four = compileGjcBundle(bundle({}, { system_appendix: five.slice(0, 4) }));
    expect(four.diagnostics).toEqual([]);
  });

  test("more than 32 appendices in one bundle is a warning (the renderer shows at most 32)", () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `a${i}`, content: "short" }));
    const over = compileGjcBundle(
      bundle({}, { system_appendix: many(20), "agent-appendix": many(13).map((a) => ({ ...a, agent: "critic" })) }),
    );
    expect(over.diagnostics.map((d) => [d.code, d.severity])).toEqual([["invalid_appendix", "warning"]]);
    expect(over.diagnostics[0].message).toContain("33 appendices");
    expect(compileGjcBundle(bundle({}, { system_appendix: many(32) })).diagnostics).toEqual([]);
  });

  test("inline appendix surfaces keep their text and its UTF-8 digest", () => {
    const r = compileGjcBundle(
      bundle({}, { "agent-appendix": [{ agent: "architect", name: "n", content: "Prefer ✓" }] }),
    );
    expect(r.bundle!.surfaces[0]).toMatchObject({
      id: "agent-appendix:architect:demo:n",
      source: "inline",
      path: null,
      content: "Prefer ✓",
      sha256: sha("Prefer ✓"),
      bytes: 10,
    });
    expect(r.bundle!.files.map((f) => f.path)).toEqual(["gajae-plugin.json"]);
  });

  test("hook ids keep empty segments for a missing phase or target", () => {
    const r = compileGjcBundle(join(fixturesDir, "gjc", "valid-event-hooks"));
    expect(r.bundle!.surfaces.map((s) => s.id)).toEqual([
      "hook:session_start:::on-start",
      "hook:tool_result:after:bash:after-bash",
      "hook:tool_result:after::after-any",
    ]);
    expect(r.bundle!.files.map((f) => f.path)).toEqual(["gajae-plugin.json", "hooks/h.ts"]);
  });
});

describe("compileGjcBundle: MCP servers under the policy", () => {
  test("a node/bun script is resolved against cwd, hashed and copied", () => {
    const r = compileGjcBundle(join(fixturesDir, "gjc", "valid-mcpservers-canonical"));
    const alpha = r.bundle!.surfaces.find((s) => s.id === "mcp:alpha")!;
    expect(alpha.launcher).toEqual({ kind: "node", script: "srv/a.mjs", executable: null, cwd: "srv" });
    expect(r.bundle!.files.map((f) => f.path)).toEqual(["gajae-plugin.json", "mcp/b-server.ts", "srv/a.mjs"]);
  });

  test("a bundled executable keeps its mode; one without an x bit is refused", () => {
    const ok = compileGjcBundle(join(fixturesDir, "gjc", "valid-bundled-executable"));
    expect(ok.bundle!.files[1]).toMatchObject({ path: "bin/server", mode: 0o755 });
    expect(ok.bundle!.surfaces[0].launcher).toEqual({
      kind: "bundled",
      script: null,
      executable: "bin/server",
      cwd: null,
    });
    const bad = compileGjcBundle(join(fixturesDir, "gjc", "mcp-executable-not-executable"));
    expect(bad.diagnostics[0].message).toContain("not executable");
  });

  test("a missing script is missing_file; a script or cwd through a symlink is security_policy; a missing cwd is missing_file", () => {
    const outside = writeTree(fresh(), { "evil.ts": "x", "dir/s.ts": "x" });
    const root = bundle(
      { "real/s.ts": "x" },
      {
        mcps: [
          { name: "a", transport: "stdio", command: "bun", args: ["ghost.ts"] },
          { name: "b", transport: "stdio", command: "bun", args: ["link.ts"] },
          { name: "c", transport: "stdio", command: "bun", args: ["s.ts"], cwd: "linkdir" },
          { name: "d", transport: "stdio", command: "bun", args: ["s.ts"], cwd: "nowhere" },
          { name: "e", transport: "stdio", command: "bun", args: ["s.ts"], cwd: "real" },
        ],
      },
    );
    symlinkSync(join(outside, "evil.ts"), join(root, "link.ts"));
    symlinkSync(join(outside, "dir"), join(root, "linkdir"));
    const r = compileGjcBundle(root);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["missing_file", "gajae-plugin.json#/mcps/0"],
      ["security_policy", "gajae-plugin.json#/mcps/1"],
      ["security_policy", "gajae-plugin.json#/mcps/2/cwd"],
      ["missing_file", "gajae-plugin.json#/mcps/3/cwd"],
    ]);
  });

  test.each([
    ["node", ["--eval", "1", "s.mjs"]],
    ["node", ["-r", "x", "s.mjs"]],
    ["bun", ["run", "s.ts"]],
    ["bun", ["s.ts", "$(id)"]],
    ["bun", ["s.ts", "${HOME}"]],
    ["node", ["../s.mjs"]],
    ["node", ["/etc/passwd"]],
    ["python3", ["s.py"]],
    ["/usr/bin/node", ["s.mjs"]],
    ["npx", ["server"]],
    ["node", []],
  ])("launcher %p %p is security_policy", (command, args) => {
    const r = compileGjcBundle(
      bundle({ "s.mjs": "x", "s.ts": "x", "s.py": "x" }, { mcps: [{ name: "m", transport: "stdio", command, args }] }),
    );
    expect(codes(r)).toEqual(["security_policy"]);
    expect(r.bundle).toBeUndefined();
  });

  test("a stdio cwd outside the root is refused", () => {
    const r = compileGjcBundle(
      bundle(
        { "s.ts": "x" },
        { mcps: [{ name: "m", transport: "stdio", command: "bun", args: ["s.ts"], cwd: "../" }] },
      ),
    );
    expect(codes(r)).toEqual(["security_policy"]);
  });

  test.each([
    "http://mcp.example.com/",
    "wss://mcp.example.com/",
    "https://user:pw@mcp.example.com/",
    "https://localhost/",
    "https://10.0.0.1/",
    "https://169.254.169.254/latest",
    "https://[::1]/",
    "https://2130706433/",
    "https://metadata.internal/",
    "https://mcp.example.com\\@evil/",
  ])("remote URL %p is security_policy", (url) => {
    const r = compileGjcBundle(bundle({}, { mcps: [{ name: "m", transport: "http", url }] }));
    expect(codes(r)).toEqual(["security_policy"]);
    expect(r.diagnostics[0].path).toBe("gajae-plugin.json#/mcps/0/url");
  });

  test("a public https URL with any port is accepted", () => {
    const r = compileGjcBundle(
      bundle({}, { mcps: [{ name: "m", transport: "sse", url: "https://mcp.example.com:8443/sse" }] }),
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.bundle!.surfaces[0]).toMatchObject({
      transport: "sse",
      url: "https://mcp.example.com:8443/sse",
      command: null,
      launcher: null,
    });
  });
});

describe("compileGjcBundle: the root and the manifest", () => {
  test("a missing root, a root that is a link or a file", () => {
    const dir = fresh();
    writeFileSync(join(dir, "file"), "x");
    symlinkSync(join(fixturesDir, "gjc", "valid-empty"), join(dir, "link"));
    expect(codes(compileGjcBundle(join(dir, "nope")))).toEqual(["missing_file"]);
    expect(codes(compileGjcBundle(join(dir, "link")))).toEqual(["security_policy"]);
    expect(codes(compileGjcBundle(join(dir, "file")))).toEqual(["missing_file"]);
  });

  test("a missing manifest, a manifest that is a link, a manifest that is not UTF-8", () => {
    expect(codes(compileGjcBundle(fresh()))).toEqual(["missing_file"]);
    const linked = fresh();
    symlinkSync(join(fixturesDir, "gjc", "valid-empty", "gajae-plugin.json"), join(linked, "gajae-plugin.json"));
    expect(codes(compileGjcBundle(linked))).toEqual(["security_policy"]);
    const latin = writeTree(fresh(), { "gajae-plugin.json": new Uint8Array([0x7b, 0xe9, 0x7d]) });
    expect(compileGjcBundle(latin).diagnostics[0].message).toContain("UTF-8");
  });

  test("a UTF-8 BOM before the manifest JSON is tolerated, and hashed as part of the bytes", () => {
    const text = `\uFEFF${JSON.stringify(base)}`;
    const root = writeTree(fresh(), { "gajae-plugin.json": text });
    const r = compileGjcBundle(root);
    expect(r.diagnostics).toEqual([]);
    expect(r.bundle!.manifestSha256).toBe(sha(text));
  });

  test("an invalid bundle returns no bundle but keeps the name and version it could read", () => {
    const r = compileGjcBundle(bundle({}, { skills: [] }));
    expect(r.bundle).toBeUndefined();
    expect(r.partial).toEqual({ name: "demo", version: "1.0.0" });
  });

  test("only declared files are read: undeclared FIFOs, links out of the root and Claude folders are never touched", () => {
    const root = fresh();
    cpSync(join(fixturesDir, "gjc", "valid-mixed-claude-root"), root, { recursive: true });
    const outside = writeTree(fresh(), { secret: "s" });
    execFileSync("mkfifo", [join(root, "skills", "fifo")]);
    execFileSync("mkfifo", [join(root, "undeclared.ts")]);
    symlinkSync(join(outside, "secret"), join(root, "agents", "escape.md"));
    symlinkSync(outside, join(root, "commands", "outside"));
    const r = compileGjcBundle(root);
    expect(r.diagnostics).toEqual([]);
    expect(r.bundle!.files.map((f) => f.path)).toEqual([
      "gajae-plugin.json",
      "subskills/critic-check/SKILL.md",
      "tools/checker.ts",
    ]);
    expect(r.bundle!.surfaces.map((s) => s.id)).toEqual(["subskill:critic:prompt:check", "tool:checker"]);
  });
});

describe("compileGjcBundle: messages stay terminal-safe", () => {
  test("a policy refusal that quotes a hostile command shows its control characters escaped", () => {
    const r = compileGjcBundle(
      bundle({}, { mcps: [{ name: "m", transport: "stdio", command: "bun\u001b]0;pwned\u0007", args: ["s.ts"] }] }),
    );
    expect(r.diagnostics.map((d) => d.code)).toEqual(["security_policy"]);
    expect(r.diagnostics[0].message).not.toMatch(/[\u0000-\u001f]/);
    expect(r.diagnostics[0].message).toContain("\\u001b]0;pwned\\u0007");
  });
});
