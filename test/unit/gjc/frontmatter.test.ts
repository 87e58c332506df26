import { describe, expect, test } from "bun:test";
import { DiagnosticSink } from "../../../src/core/diagnostics.ts";
import { ROLE_AGENTS, WORKFLOW_PHASES } from "../../../src/families/gjc/constants.ts";
import { parseSubskillFile, splitFrontmatter } from "../../../src/families/gjc/frontmatter.ts";

const enc = (s: string) => new TextEncoder().encode(s);
function fm(fields: Record<string, string>, body = "Body\n"): string {
  return `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n---\n${body}`;
}
const good = {
  name: "design",
  description: "Design review",
  binds_to: "ralplan",
  phase: "architect",
  activation_arg: "design",
};
function parse(text: string | Uint8Array) {
  const sink = new DiagnosticSink();
  const out = parseSubskillFile(sink, typeof text === "string" ? enc(text) : text, "s/SKILL.md");
  return { ...out, diags: sink.items, codes: sink.items.map((d): string => d.code) };
}

describe("splitFrontmatter", () => {
  test("BOM, CRLF and lone CR are normalized; trailing blanks after the fences are allowed", () => {
    expect(splitFrontmatter("\uFEFF---  \r\na: 1\r\n---\t\r\nbody\r\n")).toEqual({ yaml: "a: 1", body: "body" });
    expect(splitFrontmatter("---\ra: 1\r---\rbody")).toEqual({ yaml: "a: 1", body: "body" });
  });

  test("HTML comments are removed before the fences are looked for", () => {
    expect(splitFrontmatter("---\na: 1 <!-- hidden: 2 -->\n---\nbody <!-- x --> end")).toEqual({
      yaml: "a: 1 ",
      body: "body  end",
    });
  });

  test("no opener on the first line, or no closer, means no frontmatter", () => {
    expect(splitFrontmatter("\n---\na: 1\n---\n").yaml).toBeUndefined();
    expect(splitFrontmatter("---\na: 1\n").yaml).toBeUndefined();
    expect(splitFrontmatter("--- \na: 1\n----\n").yaml).toBeUndefined();
  });
});

describe("parseSubskillFile", () => {
  test("a complete frontmatter parses; optional tools as a string or a list", () => {
    const a = parse(fm(good));
    expect(a.diags).toEqual([]);
    expect(a.frontmatter).toEqual({
      name: "design",
      description: "Design review",
      parent: "ralplan",
      parentKind: "skill",
      phase: "architect",
      activation_arg: "design",
      tools: [],
    });
    expect(parse(fm({ ...good, tools: "tools/a.ts" })).frontmatter?.tools).toEqual(["tools/a.ts"]);
    expect(parse(fm({ ...good, tools: "[tools/a.ts, tools/b.ts]" })).frontmatter?.tools).toEqual([
      "tools/a.ts",
      "tools/b.ts",
    ]);
  });

  test("tabs in indentation are tolerated", () => {
    const text = `---\nname: t\ndescription: d\nbinds_to: executor\nphase: prompt\nactivation_arg: t\ntools:\n\t- tools/a.ts\n---\n`;
    expect(parse(text).frontmatter?.tools).toEqual(["tools/a.ts"]);
  });

  test.each(["name", "description", "binds_to", "phase", "activation_arg"])(
    "a missing %s is invalid_frontmatter",
    (key) => {
      const { [key as keyof typeof good]: _, ...rest } = good;
      const { codes, diags, frontmatter } = parse(fm(rest));
      expect(codes).toEqual(["invalid_frontmatter"]);
      expect(diags[0].message).toContain(`${key} is missing`);
      expect(diags[0].path).toBe("s/SKILL.md");
      expect(frontmatter).toBeUndefined();
    },
  );

  test("kebab-case spellings are not accepted, but are pointed out", () => {
    const { binds_to: _, activation_arg: __, ...rest } = good;
    const { diags } = parse(fm({ ...rest, "binds-to": "ralplan", "activation-arg": "x" }));
    expect(diags.map((d) => d.message)).toEqual([
      expect.stringContaining('binds_to is missing in s/SKILL.md. Did you mean "binds-to"?'),
      expect.stringContaining('activation_arg is missing in s/SKILL.md. Did you mean "activation-arg"?'),
    ]);
  });

  test("wrong types, blank strings and bad grammar", () => {
    expect(parse(fm({ ...good, name: "[a, b]" })).diags[0].message).toContain("not an array");
    expect(parse(fm({ ...good, description: '"  "' })).codes).toEqual(["invalid_frontmatter"]);
    expect(parse(fm({ ...good, activation_arg: '"--design"' })).diags[0].message).toContain('"--design"');
    expect(parse(fm({ ...good, name: "has space" })).codes).toEqual(["invalid_frontmatter"]);
    expect(parse(fm({ ...good, tools: "3" })).codes).toEqual(["invalid_frontmatter"]);
    expect(parse(fm({ ...good, tools: "[a.ts, 4]" })).codes).toEqual(["invalid_frontmatter"]);
  });

  test("no frontmatter, YAML errors and a non-mapping root", () => {
    expect(parse("# Title\n").diags[0].message).toContain("no frontmatter block");
    expect(parse("---\nname: [oops\n---\n").diags[0].message).toContain("not valid YAML");
    expect(parse("---\n- a\n- b\n---\n").diags[0].message).toContain("YAML mapping, not an array");
    expect(parse("---\n---\nbody").codes).toEqual(Array(5).fill("invalid_frontmatter"));
  });

  test("control characters: C0 and C1 in the description, escapes in the body; tabs and newlines are fine in the body", () => {
    const c0 = parse(fm({ ...good, description: '"erase\\e[2J"' }));
    expect(c0.codes).toEqual(["invalid_frontmatter"]);
    expect(c0.diags[0].message).toContain("U+001B");
    expect(parse(fm({ ...good, description: '"csi\\u009b"' })).diags[0].message).toContain("U+009B");
    expect(parse(fm(good, "Body with \u0007 bell\n")).diags[0].message).toContain("body");
    expect(parse(fm(good, "Table:\n\ta\tb\nline\n")).diags).toEqual([]);
    expect(parse(fm({ ...good, description: "Unicode — prose ✓ 한국어" })).diags).toEqual([]);
  });

  test("bytes that are not UTF-8 are refused", () => {
    expect(parse(new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe])).diags[0].message).toContain("not valid UTF-8");
  });

  test("every phase of every workflow skill is accepted, and prompt for each role agent", () => {
    for (const [parent, phases] of Object.entries(WORKFLOW_PHASES)) {
      for (const phase of phases) expect(parse(fm({ ...good, binds_to: parent, phase })).diags).toEqual([]);
    }
    for (const agent of ROLE_AGENTS) {
      const r = parse(fm({ ...good, binds_to: agent, phase: "prompt" }));
      expect(r.diags).toEqual([]);
      expect(r.frontmatter?.parentKind).toBe("agent");
    }
    expect(Object.keys(WORKFLOW_PHASES).sort()).toEqual(["autoresearch", "deep-interview", "ralplan", "ultragoal"]);
  });

  test.each([
    ["team", "running", "invalid_parent"],
    ["ultratest", "active", "invalid_parent"],
    ["Ralplan", "planner", "invalid_parent"],
    ["reviewer", "prompt", "invalid_parent"],
    ["ralplan", "prompt", "invalid_phase"],
    ["executor", "planner", "invalid_phase"],
    ["deep-interview", "Interviewing", "invalid_phase"],
    ["autoresearch", "planning", "invalid_phase"],
    ["ultragoal", "done", "invalid_phase"],
  ])("binds_to %p phase %p → %s", (parent, phase, code) => {
    const { codes, frontmatter } = parse(fm({ ...good, binds_to: parent, phase }));
    expect(codes).toEqual([code]);
    expect(frontmatter).toBeUndefined();
  });

  test("a near-miss parent or phase gets a suggestion", () => {
    expect(parse(fm({ ...good, binds_to: "ralpan" })).diags[0].message).toContain('Did you mean "ralplan"?');
    expect(parse(fm({ ...good, phase: "critc" })).diags[0].message).toContain('Did you mean "critic"?');
  });
});
