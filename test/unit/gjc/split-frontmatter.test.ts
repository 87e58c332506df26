import { describe, expect, test } from "bun:test";
import { splitFrontmatter } from "../../../src/families/gjc/frontmatter.ts";

/** splitFrontmatter as first written (split into lines, findIndex the closer): the oracle. */
function splitOracle(text: string): { yaml: string | undefined; body: string } {
  const OPENER = /^---[ \t]*$/;
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").replace(/<!--[\s\S]*?-->/g, "");
  const lines = normalized.split("\n");
  if (!OPENER.test(lines[0] ?? "")) return { yaml: undefined, body: normalized.trim() };
  const close = lines.findIndex((line, i) => i > 0 && OPENER.test(line));
  if (close === -1) return { yaml: undefined, body: normalized.trim() };
  return { yaml: lines.slice(1, close).join("\n"), body: lines.slice(close + 1).join("\n").trim() };
}

describe("splitFrontmatter", () => {
  const listed = [
    "", "---", "---\n", "---\n---", "---\n---\n", "---\n---\nbody", "---\nname: a\n---\nbody\n", "--- \t\nname: a\n---  \nbody",
    "---\nname: a\n----\nb", "---\nname: a\n--- x\nb", "x\n---\nname\n---\n", "\uFEFF---\r\nname: a\r\n---\r\nbody\r\n", "---\rname: a\r---\rb",
    "---\n<!-- c -->\nname: a\n---\n<!--\n---\n-->\nbody", "---\nname: a\n---\n---\nmore", "---\n\n---\n\n", "---\na\n---", "---\na\n---\n\n  body  \n\n",
    " ---\na\n---\n", "---\na\n ---\nb\n---\nc", "---\u2028a\n---\n", "---\na\u2028---\nb",
  ];
  test.each(listed)("agrees with the line-by-line split on %p", (text) => {
    expect(splitFrontmatter(text)).toEqual(splitOracle(text));
  });

  test("agrees on 20,000 random documents built from the pieces that matter", () => {
    const pieces = ["---", "--- ", "---\t", "----", "\n", "\r\n", "\r", "a: 1", "x", " ", "<!--", "-->", "\uFEFF", "\u2028"];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    let withFrontmatter = 0;
    for (let n = 0; n < 20000; n++) {
      let text = "";
      const len = Math.floor(next() * 12);
      for (let i = 0; i < len; i++) text += pieces[Math.floor(next() * pieces.length)];
      const got = splitFrontmatter(text);
      const want = splitOracle(text);
      if (got.yaml !== want.yaml || got.body !== want.body) expect({ text, got }).toEqual({ text, got: want });
      if (want.yaml !== undefined) withFrontmatter++;
    }
    expect(withFrontmatter).toBeGreaterThan(100);
  });
});
