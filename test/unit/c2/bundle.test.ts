/**
 * The whole C2 pipeline on real directories made at test time: symlinks, FIFOs, budgets and
 * component counts (git cannot hold FIFOs, and committed fixtures stay free of symlinks).
 */
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { planC2Bundle } from "../../../src/families/c2/validate.ts";
import { writeTree, type TreeSpec, tempDirsPerTest } from "../../helpers/tmp.ts";

const SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const MCP = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";
const SKILL = (name: string) => `---\nname: ${name}\ndescription: Use it.\n---\nDo it.\n`;
const manifest = (codetwo: object = {}) => ({
  $schema: SCHEMA,
  name: "t",
  version: "1.0.0",
  extensions: { "dev.codetwo": { standardVersion: "1.2.0", ...codetwo } },
});
const runtimeAt = (command: string) => manifest({ commands: [{ id: "t.run", title: "Run" }], runtime: { command } });

const fresh = tempDirsPerTest();
const bundle = (spec: TreeSpec): string => writeTree(join(fresh(), "b"), spec);
const outsideDir = (spec: TreeSpec): string => writeTree(fresh(), spec);
const errors = (dir: string) =>
  planC2Bundle(dir)
    .diagnostics.filter((d) => d.severity === "error")
    .map((d) => [d.code, d.path]);

describe("symlinks", () => {
  test("a runtime command reached through a symlinked directory is unsafe (reference test 19)", () => {
    const outside = outsideDir({ tool: { content: "#!/bin/sh\n", mode: 0o755 } });
    const dir = bundle({ "plugin.json": runtimeAt("linked/tool") });
    symlinkSync(outside, join(dir, "linked"));
    expect(errors(dir)).toEqual([["unsafe_path", "plugin.json#/extensions/dev.codetwo/runtime/command"]]);
  });

  test("a runtime command that is itself a symlink is unsafe; a real file passes", () => {
    const dir = bundle({ "plugin.json": runtimeAt("./bin/run"), "bin/real": { content: "#!/bin/sh\n", mode: 0o755 } });
    symlinkSync("real", join(dir, "bin", "run"));
    expect(errors(dir)).toEqual([["unsafe_path", "plugin.json#/extensions/dev.codetwo/runtime/command"]]);
    const ok = bundle({ "plugin.json": runtimeAt("./bin/real"), "bin/real": { content: "#!/bin/sh\n", mode: 0o755 } });
    expect(errors(ok)).toEqual([]);
  });

  test("a language server command through a symlink is unsafe", () => {
    const outside = outsideDir({ zls: "x" });
    const dir = bundle({
      "plugin.json": manifest({ languageServers: [{ id: "z", languages: ["zig"], command: "./tools/zls" }] }),
    });
    symlinkSync(outside, join(dir, "tools"));
    expect(errors(dir)).toEqual([["unsafe_path", "plugin.json#/extensions/dev.codetwo/languageServers/0/command"]]);
  });

  test("MCP ./command and cwd through symlinks are unsafe", () => {
    const outside = outsideDir({ server: "x", "data/x": "y" });
    const dir = bundle({
      "plugin.json": manifest(),
      "mcp.json": {
        $schema: MCP,
        mcpServers: {
          a: { type: "stdio", command: "./ext/server" },
          b: { type: "stdio", command: "node", cwd: "./ext/data" },
        },
      },
    });
    symlinkSync(outside, join(dir, "ext"));
    expect(errors(dir)).toEqual([
      ["unsafe_path", "mcp.json#/mcpServers/a/command"],
      ["unsafe_path", "mcp.json#/mcpServers/b/cwd"],
    ]);
  });

  test("symlinks in contribution locations are errors: SKILL.md, a skill dir, an agent, mcp.json, plugin.json", () => {
    const outside = outsideDir({
      "SKILL.md": SKILL("x"),
      "skill/SKILL.md": SKILL("y"),
      "agent.md": "Agent.\n",
      "mcp.json": "{}",
      "plugin.json": JSON.stringify(manifest()),
    });
    const dir = bundle({ "plugin.json": manifest(), "skills/ok/SKILL.md": SKILL("ok"), "skills/a/.keep": "" });
    symlinkSync(join(outside, "SKILL.md"), join(dir, "skills", "a", "SKILL.md"));
    symlinkSync(join(outside, "skill"), join(dir, "skills", "b"));
    mkdirSync(join(dir, "agents"));
    symlinkSync(join(outside, "agent.md"), join(dir, "agents", "x.md"));
    symlinkSync(join(outside, "mcp.json"), join(dir, "mcp.json"));
    expect(errors(dir)).toEqual([
      ["unsafe_path", "skills/a/SKILL.md"],
      ["unsafe_path", "skills/b"],
      ["unsafe_path", "agents/x.md"],
      ["unsafe_path", "mcp.json"],
    ]);
    const linkedManifest = bundle({ "skills/ok/SKILL.md": SKILL("ok") });
    symlinkSync(join(outside, "plugin.json"), join(linkedManifest, "plugin.json"));
    expect(errors(linkedManifest)).toEqual([["unsafe_path", "plugin.json"]]);
  });

  test("a symlink no contribution points through is not copied and not an error", () => {
    const outside = outsideDir({ "secret.txt": "s" });
    const dir = bundle({ "plugin.json": manifest(), "skills/ok/SKILL.md": SKILL("ok"), "docs/readme.md": "r" });
    symlinkSync(join(outside, "secret.txt"), join(dir, "docs", "secret.txt"));
    symlinkSync(outside, join(dir, "docs", "outside"));
    const plan = planC2Bundle(dir);
    expect(plan.ok).toBe(true);
    expect(plan.collection.files.map((f) => f.path)).toEqual(["docs/readme.md", "plugin.json", "skills/ok/SKILL.md"]);
    expect(plan.collection.skippedLinks.sort()).toEqual(["docs/outside", "docs/secret.txt"]);
  });
});

describe("special files", () => {
  test("a FIFO anywhere in the bundle is refused without being opened", () => {
    const dir = bundle({ "plugin.json": manifest(), "skills/ok/SKILL.md": SKILL("ok") });
    execFileSync("mkfifo", [join(dir, "pipe")]);
    expect(errors(dir)).toEqual([["special_file", "pipe"]]);
  });

  test("a FIFO named as a skill or runtime command is refused (never opened: the call returns)", () => {
    const dir = bundle({ "plugin.json": runtimeAt("./bin/run"), "skills/ok/.keep": "" });
    mkdirSync(join(dir, "bin"));
    execFileSync("mkfifo", [join(dir, "bin", "run")]);
    execFileSync("mkfifo", [join(dir, "skills", "ok", "SKILL.md")]);
    const codes = errors(dir).map(([c]) => c);
    expect(codes).toContain("missing_file"); // runtime command is not a regular file
    expect(codes.filter((c) => c === "special_file").length).toBe(2);
  });
});

describe("budgets (C2 limits)", () => {
  const MiB = 1024 * 1024;
  test("one file over 4 MiB is refused; exactly 4 MiB passes", () => {
    const ok = bundle({
      "plugin.json": manifest(),
      "skills/ok/SKILL.md": SKILL("ok"),
      "big.bin": new Uint8Array(4 * MiB),
    });
    expect(errors(ok)).toEqual([]);
    const bad = bundle({
      "plugin.json": manifest(),
      "skills/ok/SKILL.md": SKILL("ok"),
      "big.bin": new Uint8Array(4 * MiB + 1),
    });
    expect(errors(bad)).toEqual([["file_too_large", "big.bin"]]);
  });

  test("more than 20 MiB in all is refused", () => {
    const spec: TreeSpec = { "plugin.json": manifest(), "skills/ok/SKILL.md": SKILL("ok") };
    for (let i = 0; i < 5; i++) spec[`data/${i}.bin`] = new Uint8Array(4 * MiB);
    spec["data/5.bin"] = new Uint8Array(1024);
    expect(errors(bundle(spec)).map(([c]) => c)).toEqual(["bundle_too_large"]);
  });

  test("5,000 files pass, 5,001 are refused", () => {
    const make = (n: number) => {
      const dir = bundle({ "plugin.json": manifest(), "skills/ok/SKILL.md": SKILL("ok") });
      mkdirSync(join(dir, "many"));
      for (let i = 0; i < n - 2; i++) writeFileSync(join(dir, "many", `f${i}`), "");
      return dir;
    };
    expect(errors(make(5000))).toEqual([]);
    expect(errors(make(5001)).map(([c]) => c)).toEqual(["bundle_too_many_files"]);
  });

  test("depth 12 passes, depth 13 is refused", () => {
    const deep = (n: number) => `${Array.from({ length: n }, (_, i) => `d${i}`).join("/")}/f`;
    expect(errors(bundle({ "plugin.json": manifest(), "skills/ok/SKILL.md": SKILL("ok"), [deep(12)]: "x" }))).toEqual(
      [],
    );
    expect(
      errors(bundle({ "plugin.json": manifest(), "skills/ok/SKILL.md": SKILL("ok"), [deep(13)]: "x" })).map(([c]) => c),
    ).toEqual(["bundle_too_deep"]);
  });

  test(".git, node_modules, target and .venv are never collected nor inventoried", () => {
    const dir = bundle({
      "plugin.json": manifest(),
      "skills/ok/SKILL.md": SKILL("ok"),
      "node_modules/x/index.js": "x",
      "agents/node_modules/a.md": "Agent.\n",
      ".git/HEAD": "x",
      "target/out": "x",
      ".venv/bin/py": "x",
    });
    const plan = planC2Bundle(dir);
    expect(plan.ok).toBe(true);
    expect(plan.contributions.counts.subagents).toBe(0);
    expect(plan.collection.files.map((f) => f.path)).toEqual(["plugin.json", "skills/ok/SKILL.md"]);
  });
});

describe("components", () => {
  const withAgents = (n: number, skills = 0) => {
    const spec: TreeSpec = { "plugin.json": manifest() };
    for (let i = 0; i < n; i++) spec[`agents/a${i}.md`] = `Agent ${i}.\n`;
    for (let i = 0; i < skills; i++) spec[`skills/s${i}/SKILL.md`] = SKILL(`s${i}`);
    return bundle(spec);
  };
  test("100 skills + agents + prompt commands + MCP servers pass, 101 are refused", () => {
    expect(errors(withAgents(50, 50))).toEqual([]);
    expect(errors(withAgents(50, 51))).toEqual([["too_many_components", "."]]);
  });
  test("more than 100 Markdown files under agents/ stop the walk", () => {
    expect(errors(withAgents(101)).map(([c]) => c)).toEqual(["too_many_components"]);
  });

  test("inventory: skills, agents and prompt commands exactly one level deep (the standard's agents/*.md, commands/*.md), frontmatter read", () => {
    const dir = bundle({
      "plugin.json": manifest(),
      "skills/review/SKILL.md": SKILL("review"),
      "skills/nested/deeper/SKILL.md": SKILL("deeper"),
      "skills/README.md": "not a skill",
      "agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews\nmodel: fast\ntools: Read, Grep\n---\nReview.\n",
      "agents/empty.md": "---\nname: e\n---\n",
      "agents/team/deeper.md": "---\nname: deeper\ndescription: Not an agent\n---\nIgnored.\n",
      "commands/commit.md": "Commit it.\n",
      "commands/git/push.md": "Not a command.\n",
      "commands/notes.txt": "not markdown",
    });
    const plan = planC2Bundle(dir);
    expect(plan.ok).toBe(true);
    const c = plan.contributions;
    expect(c.skills.map((s) => s.name)).toEqual(["review"]);
    expect(c.agents).toEqual([
      {
        name: "reviewer",
        description: "Reviews",
        model: "fast",
        tools: ["Read", "Grep"],
        path: "agents/reviewer.md",
        localId: expect.stringMatching(/^agents-reviewer-md-[0-9a-f]{8}$/),
      },
    ]);
    expect(c.promptCommands.map((p) => [p.name, p.path])).toEqual([["commit", "commands/commit.md"]]);
    expect(c.counts).toMatchObject({ skills: 1, subagents: 1, commands: 1, runtime: 0 });
    // The deeper files are ordinary bundle files: stored, never contributions.
    expect(plan.collection.files.map((f) => f.path)).toEqual(
      expect.arrayContaining(["agents/team/deeper.md", "commands/git/push.md"]),
    );
    // A link down there is not a contribution path either.
    const outside = outsideDir({ "a.md": "A.\n" });
    const linked = bundle({ "plugin.json": manifest(), "agents/ok.md": "Agent.\n", "agents/deep/.keep": "" });
    symlinkSync(join(outside, "a.md"), join(linked, "agents", "deep", "x.md"));
    expect(errors(linked)).toEqual([]);
  });

  test("runtime bundles: counts, extension components and the trust warning", () => {
    const dir = bundle({
      "plugin.json": manifest({
        commands: [{ id: "t.run", title: "Run" }],
        runtime: { command: "node" },
        ui: [{ id: "go", slot: "host.actions", label: "Go", command: "t.run" }],
        connectors: [{ id: "chat", provider: "p", command: "t.run", capabilities: ["connection"] }],
        languageServers: [{ id: "z", languages: ["zig"], command: "zls" }],
      }),
      "hooks/hooks.json": "{}",
    });
    const plan = planC2Bundle(dir);
    expect(plan.ok).toBe(true);
    expect(plan.contributions.counts).toMatchObject({
      runtime: 1,
      runtimeCommands: 1,
      ui: 1,
      connectors: 1,
      languageServers: 1,
      hooks: 1,
    });
    expect(plan.contributions.components.map((c) => [c.kind, c.status])).toEqual([
      ["command", "ready"],
      ["lsp", "requires-trust"],
      ["hook", "unsupported"],
      ["ui", "requires-trust"],
      ["connector", "requires-trust"],
    ]);
    expect(plan.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["warning", "component_unsupported"],
      ["warning", "runtime.requires_trust"],
    ]);
  });

  test("keepContents hands install the very bytes that were hashed", () => {
    const dir = bundle({ "plugin.json": manifest(), "skills/ok/SKILL.md": SKILL("ok") });
    const plan = planC2Bundle(dir, { keepContents: true });
    for (const f of plan.collection.files) {
      const bytes = plan.collection.contents!.get(f.path)!;
      expect(new Bun.CryptoHasher("sha256").update(bytes).digest("hex")).toBe(f.sha256);
    }
  });

  test("one run reports manifest, contribution and collector problems together", () => {
    const dir = bundle({
      "plugin.json": { ...manifest(), name: "Bad" },
      "skills/x/SKILL.md": "---\nname: X\n---\nb\n",
      "big.bin": new Uint8Array(4 * 1024 * 1024 + 1),
    });
    const plan = planC2Bundle(dir);
    expect(plan.diagnostics.map((d) => d.code)).toEqual(["invalid_name", "invalid_agent_skill", "file_too_large"]);
  });
});
