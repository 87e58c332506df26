import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CODES } from "../../../src/core/codes.ts";
import { DYNAMIC_CODES, INDIRECT_CODES, scanInventory } from "../../helpers/code-inventory.ts";
import { tokenize } from "../../helpers/tokenize.ts";
import { repoRoot } from "../../helpers/cli.ts";
import { tempDir, writeTree } from "../../helpers/tmp.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** Scans a throwaway repository whose src/ holds the given files. */
function scan(files: Record<string, string>) {
  const dir = tempDir("gjc-inventory-");
  cleanups.push(dir.cleanup);
  writeTree(dir.path, Object.fromEntries(Object.entries(files).map(([k, v]) => [`src/${k}`, v])));
  return scanInventory(dir.path);
}
const codesOf = (files: Record<string, string>) => [...scan(files).codes.keys()].sort();

describe("tokenize", () => {
  test("comments, strings, templates and regexes are never code", () => {
    const tokens = tokenize(
      [
        '// code: "in_line_comment"',
        '/* sink.error("in_block_comment", x) */',
        'const s = "code: \\"in_string\\"";',
        'const t = `code: ${a ? "in_substitution" : `nested ${b}`} tail`;',
        'const r = /code: "in_regex"\\/[/"]/g.test(x);',
        "const d = a / b; const e = c / d;",
        'const real = "after_all";',
      ].join("\n"),
    );
    const strings = tokens.filter((t) => t.type === "string").map((t) => t.value);
    expect(strings).toEqual(['code: "in_string"', "after_all"]);
    const templates = tokens.filter((t) => t.type === "template");
    expect(templates).toHaveLength(1);
    expect(templates[0].dynamic).toBe(true);
    expect(tokens.filter((t) => t.type === "regex")).toHaveLength(1);
    expect(tokens.find((t) => t.value === "after_all")?.line).toBe(7);
  });
});

describe("scanInventory rules", () => {
  test("code properties, variables and defaults; comparisons, object keys and nested call arguments are reads", () => {
    expect(
      codesOf({
        "a.ts": [
          'throw new GjcError({ code: "prop_code", message: "m" });',
          'const code = fast ? "ternary_a" : "ternary_b";',
          'export function usageError(message: string, hint?: string, code = "default_code") {}',
          'if (error.code === "compared_code") {}',
          'const x = { code: m.code([...segs], "keyword_arg"), y: 1 };',
          'status = e instanceof GjcError ? e.code : "not_a_code";',
          'const args = { code: { type: "positional" } };',
          'const legacy = { code: "Not_Snake" };',
        ].join("\n"),
      }),
    ).toEqual(["default_code", "prop_code", "ternary_a", "ternary_b"]);
  });

  test("emitters are discovered by a parameter named code or *Code, in any position", () => {
    expect(
      codesOf({
        "emit.ts": [
          "export class Sink { error(code: string, path: string, message: string) {} warning(code: string, path: string) {} }",
          'export function usageError(message: string, hint?: string, code = "usage") {}',
          "const refused = (code: string, message: string) => make(code, message);",
          "function readMarkdown(dir: string, rel: string, warnCode: string): Doc | undefined { return undefined; }",
          "export class Refusal extends Error { constructor(readonly code: string, message: string) { super(message); } }",
          "function unrelated(kind: string) {}",
        ].join("\n"),
        "use.ts": [
          'sink.error("sink_error", at, "m");',
          'sink.warning(cond ? "warn_a" : "warn_b", at);',
          'throw usageError("Message text.", "Hint text.", "usage_third_arg");',
          'throw refused("arrow_helper", "m");',
          'readMarkdown(dir, rel, "fourth_arg");',
          'throw new Refusal("constructor_arg", "m");',
          'unrelated("not_emitted");',
        ].join("\n"),
      }),
    ).toEqual([
      "arrow_helper",
      "constructor_arg",
      "fourth_arg",
      "sink_error",
      "usage",
      "usage_third_arg",
      "warn_a",
      "warn_b",
    ]);
  });

  test("code-choosing methods, table lookups and *Code union types", () => {
    expect(
      codesOf({
        "map.ts": [
          'const TABLE: Record<string, string> = { commands: "table_a", ui: "table_b" };',
          "const mapping = {",
          "  code(segments: string[]) {",
          '    if (segments[0] === "$schema") return "returned_code";',
          '    return TABLE[segments[0]] ?? "fallback_code";',
          "  },",
          "};",
          'export type SourceErrorCode = "union_a" | "union_b";',
          'type Kind = "not_a_code_union";',
        ].join("\n"),
      }),
    ).toEqual(["fallback_code", "returned_code", "table_a", "table_b", "union_a", "union_b"]);
  });

  test("a template-literal code is unresolved unless DYNAMIC_CODES lists it", () => {
    const inv = scan({ "dyn.ts": "sink.error(`dup_${kind}`, at, m);\nexport class Sink { error(code: string) {} }" });
    expect(inv.unresolved).toEqual([{ template: "dup_${kind}", file: "src/dyn.ts", line: 1 }]);
    expect(inv.codes.has("dup_${kind}")).toBe(false);
  });

  test("generated files are skipped; sites carry file, line and rule", () => {
    const inv = scan({
      "pages.generated.ts": 'const x = { code: "generated_only" };',
      "b.ts": '\n\nconst y = { code: "real_one" };',
    });
    expect(inv.codes.has("generated_only")).toBe(false);
    expect(inv.codes.get("real_one")).toEqual([{ code: "real_one", file: "src/b.ts", line: 3, rule: "property" }]);
  });
});

describe("the gjc code base", () => {
  const inventory = scanInventory(repoRoot);
  // The table has exactly the pages (test/unit/explain/pages.test.ts); GjcError and Diagnostic
  // take only its codes (the type checker); the scan also sees codes in other documents' fields.
  const table = new Set<string>(CODES);

  test("no code is built from an unlisted template string", () => {
    expect(inventory.unresolved).toEqual([]);
  });

  test("finds the codes it must (sanity check of the scanner on the real tree)", () => {
    for (const code of [
      "invalid_manifest",
      "security_policy",
      "usage",
      "unknown_option",
      "missing_argument",
      "registry_corrupt",
      "runtime.requires_trust",
      "mcp_timeout",
      "unknown_code",
      "internal_error",
      "duplicate_parent_phase",
      "too_many_ui",
    ]) {
      expect(inventory.codes.has(code)).toBe(true);
    }
    expect(inventory.codes.size).toBeGreaterThan(150);
  });

  test("the hand-written tables name real codes and files", () => {
    for (const where of Object.keys(INDIRECT_CODES)) expect(existsSync(join(repoRoot, where.split(" ")[0]))).toBe(true);
    for (const list of [...Object.values(DYNAMIC_CODES), ...Object.values(INDIRECT_CODES)]) {
      for (const code of list) expect(table.has(code)).toBe(true);
    }
  });

  test("every code the code base can emit is in the code table, so it has a page", () => {
    const missing = [...inventory.codes.keys()].filter((c) => !table.has(c));
    if (missing.length) {
      const where = missing.map(
        (c) =>
          `${c} (${inventory.codes
            .get(c)!
            .map((s) => `${s.file}:${s.line}`)
            .slice(0, 2)
            .join(", ")})`,
      );
      throw new Error(
        `Codes not in src/core/codes.ts (add each there, write docs/errors/<code>.md, then run bun scripts/gen-error-index.ts):\n  ${where.join("\n  ")}`,
      );
    }
  });

  test("every code of the table is one the code base still emits (the table and its pages do not rot)", () => {
    const orphans = [...table].filter((p) => !inventory.codes.has(p));
    expect(orphans).toEqual([]);
  });
});
