import { describe, expect, test } from "bun:test";
import { DiagnosticSink } from "../../../src/core/diagnostics.ts";
import { CANONICAL_KEYS } from "../../../src/families/gjc/constants.ts";
import { parseGjcManifest } from "../../../src/families/gjc/manifest.ts";

const base = { kind: "gajae-code-plugin", name: "demo", version: "1.0.0" };
function parse(raw: unknown) {
  const sink = new DiagnosticSink();
  const parsed = parseGjcManifest(sink, raw);
  return { parsed, diags: sink.items, codes: sink.items.map((d) => d.code) };
}

describe("manifest: top level, in precedence order", () => {
  test("{kind, name, version} alone is a valid empty bundle", () => {
    const { parsed, diags } = parse(base);
    expect(diags).toEqual([]);
    expect(parsed).toMatchObject({
      name: "demo",
      version: "1.0.0",
      subskills: [],
      tools: [],
      hooks: [],
      mcps: [],
      systemAppendices: [],
      agentAppendices: [],
    });
  });

  test.each([[null], [[]], ["x"], [3], [true]] as const)("a manifest that is %p is not an object", (raw) => {
    const { codes, diags } = parse(raw);
    expect(codes).toEqual(["invalid_manifest"]);
    expect(diags[0].message).toContain("must hold a JSON object");
  });

  test("forbidden keys are reported in the fixed order skills, agents, commands, slash-commands, whatever the key order", () => {
    const { diags } = parse({ ...base, "slash-commands": [], commands: [], agents: [], skills: [] });
    expect(diags.map((d) => [d.code, d.path])).toEqual([
      ["forbidden_surface", "gajae-plugin.json#/skills"],
      ["forbidden_surface", "gajae-plugin.json#/agents"],
      ["forbidden_surface", "gajae-plugin.json#/commands"],
      ["forbidden_surface", "gajae-plugin.json#/slash-commands"],
    ]);
  });

  test("each forbidden key carries its targeted migration advice", () => {
    const { diags } = parse({ ...base, skills: [], agents: [], commands: [], "slash-commands": [] });
    const [skills, agents, commands, slash] = diags;
    expect(skills.message).toContain("autoresearch, deep-interview, ralplan, ultragoal");
    expect(skills.hint).toContain('"subskills"');
    expect(skills.hint).toContain(".gjc/skills/<name>/SKILL.md");
    expect(agents.message).toContain("Claude Code");
    expect(agents.hint).toContain("executor|architect|planner|critic");
    expect(commands.hint).toContain(".gjc/commands/<name>");
    expect(slash.hint).toContain(".gjc/commands/<name>");
  });

  test('"mcp" gets the ambiguous-alias diagnostic, not the generic unknown-key one', () => {
    const { diags } = parse({ ...base, mcp: {} });
    expect(diags).toHaveLength(1);
    expect(diags[0].code).toBe("unsupported_surface");
    expect(diags[0].message).toContain("ambiguous");
    expect(diags[0].hint).toContain('"mcpServers"');
  });

  test("an unknown key lists the canonical keys and suggests the closest one", () => {
    const cases: [string, string | undefined][] = [
      ["system-appendix", "system_appendix"],
      ["agent_appendix", "agent-appendix"],
      ["subskill", "subskills"],
      ["mcpserver", "mcpServers"],
      ["description", undefined],
    ];
    for (const [key, suggestion] of cases) {
      const { diags } = parse({ ...base, [key]: [] });
      expect(diags.map((d) => d.code)).toEqual(["unsupported_surface"]);
      expect(diags[0].message).toContain(`Known keys: ${CANONICAL_KEYS.join(", ")}.`);
      if (suggestion) expect(diags[0].message).toContain(`Did you mean "${suggestion}"?`);
      else expect(diags[0].message).not.toContain("Did you mean");
    }
  });

  test("a hostile unknown key is quoted, never echoed raw", () => {
    const { diags } = parse({ ...base, "\u001b[2Jx": 1 });
    expect(diags[0].message).not.toContain("\u001b");
    expect(diags[0].message).toContain("\\u001b[2Jx");
  });

  test("a Claude Code hooks map is refused with the loose-hooks advice; other non-arrays too", () => {
    const map = parse({ ...base, hooks: { PreToolUse: [] } }).diags;
    expect(map.map((d) => d.code)).toEqual(["invalid_manifest"]);
    expect(map[0].message).toContain("Claude Code plugin.json hooks map");
    expect(map[0].hint).toContain(".gjc/hooks/pre/<tool>.ts");
    const str = parse({ ...base, hooks: "hooks.json" }).diags;
    expect(str[0].message).toContain("must be an array");
    expect(str[0].message).not.toContain("Claude");
  });

  test("a hook entry shaped like Claude Code's { matcher, hooks, source } is refused", () => {
    for (const key of ["matcher", "hooks", "source"]) {
      const { diags } = parse({ ...base, hooks: [{ [key]: "x", name: "h", event: "session_start", path: "h.ts" }] });
      expect(diags.map((d) => d.code)).toEqual(["invalid_manifest"]);
      expect(diags[0].message).toContain("{ matcher, hooks, source }");
    }
  });

  test("kind: missing, another family's, or not a string", () => {
    expect(parse({ name: "a", version: "1" }).diags[0]).toMatchObject({
      code: "invalid_kind",
      path: "gajae-plugin.json#/kind",
    });
    expect(parse({ ...base, kind: "claude-plugin" }).diags[0].message).toContain('"claude-plugin"');
    expect(parse({ ...base, kind: 7 }).codes).toEqual(["invalid_kind"]);
  });

  test("mcps together with mcpServers is refused and neither is compiled", () => {
    const { codes, parsed } = parse({
      ...base,
      mcps: [{ name: "a", transport: "http", url: "https://a.example.com" }],
      mcpServers: { b: { url: "https://b.example.com" } },
    });
    expect(codes).toEqual(["invalid_manifest"]);
    expect(parsed.mcps).toEqual([]);
  });

  test("every problem is reported in one run, in the documented order", () => {
    const { codes } = parse({
      version: "bad version",
      name: "",
      mcpServers: {},
      mcps: [],
      hooks: {},
      weird: 1,
      mcp: 1,
      commands: [],
      skills: [],
      tools: [{ name: "t" }],
    });
    expect(codes).toEqual([
      "forbidden_surface",
      "forbidden_surface",
      "unsupported_surface",
      "unsupported_surface",
      "invalid_manifest",
      "invalid_kind",
      "invalid_manifest",
      "invalid_manifest",
      "invalid_manifest",
      "invalid_manifest",
    ]);
  });
});

describe("manifest: name and version grammars", () => {
  test.each(["a", "A0", "my.bundle_name-2", "x".repeat(128), "0lead"])("name %p is accepted", (name) => {
    expect(parse({ ...base, name }).diags).toEqual([]);
  });

  test.each([
    "",
    " ",
    "-lead",
    ".hidden",
    "../evil",
    "has space",
    "tok=abc",
    "x".repeat(129),
    "\u001b[31mred",
    "/abs",
    "naïve",
    "a/b",
  ])("name %p is refused", (name) => {
    const { diags, parsed } = parse({ ...base, name });
    expect(diags.map((d) => d.code)).toEqual(["invalid_manifest"]);
    expect(parsed.name).toBeNull();
    expect(diags[0].message).not.toContain("\u001b");
  });

  test("name of the wrong type, or missing", () => {
    expect(parse({ ...base, name: 3 }).diags[0].message).toContain("not a number");
    const { name: _, ...noName } = base;
    expect(parse(noName).diags[0].message).toContain('"name" is missing');
  });

  test.each(["1.0.0", "1.0.0-rc.1+build.5", "2024_01", "v1", "x".repeat(64)])("version %p is accepted", (version) => {
    expect(parse({ ...base, version }).diags).toEqual([]);
  });

  test.each(["", "+1", "1.0 beta", "1/2", "x".repeat(65), "1.0\n"])("version %p is refused", (version) => {
    const { codes, parsed } = parse({ ...base, version });
    expect(codes).toEqual(["invalid_manifest"]);
    expect(parsed.version).toBeNull();
  });
});

describe("manifest: surface shapes", () => {
  test.each(["subskills", "tools", "hooks", "mcps", "system_appendix", "agent-appendix"])(
    "%s must be an array",
    (key) => {
      const { diags } = parse({ ...base, [key]: key === "hooks" ? "x" : {} });
      expect(diags.map((d) => d.code)).toEqual(["invalid_manifest"]);
      expect(diags[0].path).toBe(`gajae-plugin.json#/${key}`);
    },
  );

  test("subskills entries are non-empty strings", () => {
    const { diags, parsed } = parse({ ...base, subskills: ["a/SKILL.md", "", 3, null] });
    expect(diags.map((d) => d.path)).toEqual([
      "gajae-plugin.json#/subskills/1",
      "gajae-plugin.json#/subskills/2",
      "gajae-plugin.json#/subskills/3",
    ]);
    expect(parsed.subskills.map((s) => s.entry)).toEqual(["a/SKILL.md"]);
  });

  test("tools: object form, string form, and what is refused", () => {
    const { diags, parsed } = parse({
      ...base,
      tools: [
        { name: "ok", path: "t/ok.ts", description: "Unicode prose — fine ✓" },
        "t/scoped.ts",
        "  ",
        42,
        { name: "bad name", path: "x.ts" },
        { name: "c1", path: "x.ts", description: "hidden \u009b control" },
        { name: "tab", path: "x.ts", description: "a\tb" },
        { name: "h", path: "x.ts", sha256: "abc" },
        { name: "typo", path: "x.ts", descripton: "x" },
        { name: "nopath" },
      ],
    });
    expect(parsed.tools.map((t) => t.entry)).toEqual([
      { name: "ok", path: "t/ok.ts", description: "Unicode prose — fine ✓" },
      "t/scoped.ts",
    ]);
    expect(diags.map((d) => [d.code, d.path])).toEqual([
      ["invalid_manifest", "gajae-plugin.json#/tools/2"],
      ["invalid_manifest", "gajae-plugin.json#/tools/3"],
      ["invalid_manifest", "gajae-plugin.json#/tools/4/name"],
      ["invalid_manifest", "gajae-plugin.json#/tools/5/description"],
      ["invalid_manifest", "gajae-plugin.json#/tools/6/description"],
      ["invalid_manifest", "gajae-plugin.json#/tools/7/sha256"],
      ["invalid_manifest", "gajae-plugin.json#/tools/8/descripton"],
      ["invalid_manifest", "gajae-plugin.json#/tools/9/path"],
    ]);
    expect(diags[3].message).toContain("U+009B");
    expect(diags[6].message).toContain('Did you mean "description"?');
  });

  test("a declared sha256 is lowercased so it compares case-insensitively", () => {
    const { parsed } = parse({ ...base, tools: [{ name: "t", path: "t.ts", sha256: "AB".repeat(32) }] });
    expect(parsed.tools[0].entry).toEqual({ name: "t", path: "t.ts", sha256: "ab".repeat(32) });
  });
});

describe("manifest: hooks", () => {
  const hook = (h: Record<string, unknown>) => parse({ ...base, hooks: [{ name: "h", path: "h.ts", ...h }] });

  test("accepted shapes, normalized with a fixed key order", () => {
    const { diags, parsed } = parse({
      ...base,
      hooks: [
        { path: "h.ts", phase: "before", target: "read", event: "tool_call", name: "a" },
        { name: "b", event: "tool_result", phase: "after", path: "h.ts" },
        { name: "c", event: "session_start", path: "h.ts" },
      ],
    });
    expect(diags).toEqual([]);
    expect(JSON.stringify(parsed.hooks[0].entry)).toBe(
      '{"name":"a","event":"tool_call","target":"read","phase":"before","path":"h.ts"}',
    );
  });

  test.each([
    [{ event: "tool_call", phase: "before" }, "invalid_hook", "requires a target"],
    [{ event: "tool_call", target: "read" }, "invalid_hook", 'requires the "before" phase'],
    [{ event: "tool_call", target: "read", phase: "after" }, "invalid_hook", 'not "after"'],
    [{ event: "tool_result" }, "invalid_hook", 'requires the "after" phase'],
    [{ event: "tool_result", phase: "before" }, "invalid_hook", 'requires the "after" phase'],
    [{ event: "session_start", phase: "after" }, "invalid_hook", "only applies to tool_call and tool_result"],
    [{ event: "turn_end", phase: "before" }, "invalid_hook", "only applies"],
    [{ event: "tool_calls", target: "x", phase: "before" }, "invalid_hook", 'Did you mean "tool_call"?'],
    [{ event: "tool_call", target: "read", phase: "during" }, "invalid_manifest", '"before" or "after"'],
    [{ event: "tool_call", target: "../x", phase: "before" }, "invalid_manifest", "target"],
    [{ event: "" }, "invalid_manifest", "non-empty string"],
  ] as const)("%p → %s", (h, code, text) => {
    const { diags, parsed } = hook(h);
    expect(diags.map((d) => d.code)).toContain(code);
    expect(diags.some((d) => d.message.includes(text))).toBe(true);
    expect(parsed.hooks).toEqual([]);
  });

  test("event names the seed does not forbid are accepted; one the runtime is not known to emit is a warning", () => {
    for (const event of [
      "session.compacting",
      "ttsr_triggered",
      "resources_discover",
      "credential_disabled",
      "auto_compaction_start",
      "reasoning_summary_delta",
    ]) {
      const r = hook({ event });
      expect({ event, diags: r.diags }).toEqual({ event, diags: [] });
      expect(r.parsed.hooks).toHaveLength(1);
    }
    const odd = hook({ event: "PreToolUse" });
    expect(odd.diags.map((d) => [d.code, d.severity])).toEqual([["unknown_hook_event", "warning"]]);
    expect(odd.parsed.hooks).toHaveLength(1);
  });

  test("a tool_call hook without target and phase reports both", () => {
    expect(hook({ event: "tool_call" }).codes).toEqual(["invalid_hook", "invalid_hook"]);
  });
});

describe("manifest: mcps and appendices", () => {
  test("canonical MCP entries: transport, command/url requirement, field types", () => {
    const { diags } = parse({
      ...base,
      mcps: [
        { name: "a", command: "bun" },
        { name: "b", transport: "ws", url: "https://x.example.com" },
        { name: "c", transport: "stdio" },
        { name: "d", transport: "sse" },
        { name: "e", transport: "stdio", command: "bun", args: ["s.ts", 1] },
        { name: "f", transport: "http", url: "https://x.example.com", sha256: "a".repeat(64) },
        "string",
      ],
    });
    expect(diags.map((d) => [d.code, d.path])).toEqual([
      ["invalid_manifest", "gajae-plugin.json#/mcps/0/transport"],
      ["invalid_manifest", "gajae-plugin.json#/mcps/1/transport"],
      ["invalid_mcp", "gajae-plugin.json#/mcps/2"],
      ["invalid_mcp", "gajae-plugin.json#/mcps/3"],
      ["invalid_manifest", "gajae-plugin.json#/mcps/4/args"],
      ["invalid_mcp", "gajae-plugin.json#/mcps/5/sha256"],
      ["invalid_manifest", "gajae-plugin.json#/mcps/6"],
    ]);
  });

  test("canonical MCP entries refuse headers/env/auth and transport-foreign fields as unsupported_surface", () => {
    const { diags } = parse({
      ...base,
      mcps: [
        { name: "r", transport: "http", url: "https://x.example.com", headers: { A: "b" } },
        {
          name: "s",
          transport: "stdio",
          command: "bun",
          args: ["s.ts"],
          env: { A: "1" },
          url: "https://x.example.com",
        },
        { name: "t", transport: "sse", url: "https://x.example.com", cwd: "." },
      ],
    });
    expect(diags.map((d) => [d.code, d.path])).toEqual([
      ["unsupported_surface", "gajae-plugin.json#/mcps/0/headers"],
      ["unsupported_surface", "gajae-plugin.json#/mcps/1/env"],
      ["unsupported_surface", "gajae-plugin.json#/mcps/1/url"],
      ["unsupported_surface", "gajae-plugin.json#/mcps/2/cwd"],
    ]);
    expect(diags[0].hint).toContain(".gjc/mcp.json");
  });

  test("appendices: exactly one of path/content, non-empty, capped, agent checked", () => {
    const { diags, parsed } = parse({
      ...base,
      system_appendix: [
        { name: "ok", content: "text" },
        { name: "both", path: "a.md", content: "x" },
        { name: "neither" },
        { name: "blank", content: " \n\t" },
        { name: "num", content: 5 },
        { name: "max", content: "é".repeat(4096) },
        { name: "over", content: "é".repeat(4096) + "x" },
      ],
      "agent-appendix": [
        { agent: "executor", name: "ok", path: "p.md" },
        { agent: "reviewer", name: "x", content: "t" },
        { name: "noagent", content: "t" },
      ],
    });
    expect(diags.map((d) => [d.code, d.path])).toEqual([
      ["invalid_appendix", "gajae-plugin.json#/system_appendix/1"],
      ["invalid_appendix", "gajae-plugin.json#/system_appendix/2"],
      ["invalid_appendix", "gajae-plugin.json#/system_appendix/3/content"],
      ["invalid_manifest", "gajae-plugin.json#/system_appendix/4/content"],
      ["invalid_appendix", "gajae-plugin.json#/system_appendix/6/content"],
      ["invalid_parent", "gajae-plugin.json#/agent-appendix/1/agent"],
      ["invalid_manifest", "gajae-plugin.json#/agent-appendix/2/agent"],
    ]);
    expect(diags[4].message).toContain("8193 bytes");
    expect(parsed.systemAppendices.map((a) => a.entry.name)).toEqual(["ok", "max"]);
    expect(parsed.agentAppendices.map((a) => a.entry)).toEqual([{ agent: "executor", name: "ok", path: "p.md" }]);
  });
});

describe("manifest: diagnostic paths", () => {
  test("pointer segments escape ~ and / (RFC 6901) and percent-encode %, spaces and control characters", () => {
    const { diags } = parse({ ...base, "a/b~c": 1, "\u001b]0;x\u0007": 2, "50% off": 3 });
    expect(diags.map((d) => d.path)).toEqual([
      "gajae-plugin.json#/a~1b~0c",
      "gajae-plugin.json#/%1B]0;x%07",
      "gajae-plugin.json#/50%25%20off",
    ]);
  });
});
