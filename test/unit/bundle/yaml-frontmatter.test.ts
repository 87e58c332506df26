import { describe, expect, test } from "bun:test";
import { parseFrontmatterYaml } from "../../../src/bundle/yaml-frontmatter.ts";

describe("parseFrontmatterYaml", () => {
  test("a repeated key is refused in every form, with its line", () => {
    const cases: [string, number][] = [
      ["name: a\nname: b\n", 2],
      ['name: a\n"name": b\n', 2],
      ["'it''s': 1\nit's: 2\n", 2],
      ["0x10: a\n16: b\n", 2], // one integer key, two spellings
      ["description: d\n? name\n: a\nname: b\n", 4],
      ["name: a\nmeta:\n  k: 1\n  k: 2\n", 4],
      ["meta: {k: 1, k: 2}\n", 1],
    ];
    for (const [yaml, line] of cases) {
      const r = parseFrontmatterYaml(yaml);
      expect({ yaml, r }).toEqual({
        yaml,
        r: {
          ok: false,
          duplicate: true,
          line,
          key: expect.any(String),
          reason: expect.stringContaining("written twice"),
        },
      });
    }
  });

  test("keys in block scalars, comments, URLs and sibling mappings are not repeats", () => {
    for (const yaml of [
      "name: a\ndescription: |\n  name: x\n  y\n",
      "name: >\n  folded\n  name: no\ntools: [a, b]\n",
      "a: 1 # c: d\nb: 2\n",
      "url: https://x\nname: n\n",
      "a:\n  k: 1\nb:\n  k: 2\n",
    ]) {
      expect(parseFrontmatterYaml(yaml).ok).toBe(true);
    }
    expect(parseFrontmatterYaml("name: a\ntools: [t/x.ts, t/y.ts]\n")).toEqual({
      ok: true,
      value: { name: "a", tools: ["t/x.ts", "t/y.ts"] },
    });
  });

  test("an alias bomb stops at once; a syntax error names its line", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(", ")}]`,
      );
    const bomb = parseFrontmatterYaml(levels.join("\n"));
    expect(bomb.ok).toBe(false);
    expect(parseFrontmatterYaml("name: a\nb: [unclosed\n")).toMatchObject({ ok: false, line: expect.any(Number) });
  });
});
