import { describe, expect, test } from "bun:test";
import { splitFrontmatter } from "../../../src/families/gjc/frontmatter.ts";

describe("splitFrontmatter", () => {
  const cases: [string, string | undefined, string][] = [
    ["", undefined, ""],
    ["---", undefined, "---"],
    ["---\n---", "", ""],
    ["---\n---\nbody", "", "body"],
    ["---\nname: a\n---\nbody\n", "name: a", "body"],
    // Trailing blanks on the fences are allowed; more dashes or text after them are not a fence.
    ["--- \t\nname: a\n---  \nbody", "name: a", "body"],
    ["---\nname: a\n----\nb", undefined, "---\nname: a\n----\nb"],
    ["---\nname: a\n--- x\nb", undefined, "---\nname: a\n--- x\nb"],
    // The block must open on the first line.
    ["x\n---\nname\n---\n", undefined, "x\n---\nname\n---"],
    [" ---\na\n---\n", undefined, "---\na\n---"],
    // A BOM is dropped, CRLF and CR become LF.
    ["\uFEFF---\r\nname: a\r\n---\r\nbody\r\n", "name: a", "body"],
    ["---\rname: a\r---\rb", "name: a", "b"],
    // HTML comments are removed first, so a fence inside one does not count.
    ["---\n<!-- c -->\nname: a\n---\n<!--\n---\n-->\nbody", "\nname: a", "body"],
    // The first closing fence ends the block.
    ["---\nname: a\n---\n---\nmore", "name: a", "---\nmore"],
    ["---\na\n---\n\n  body  \n\n", "a", "body"],
    // U+2028 is not a line break here.
    ["---\u2028a\n---\n", undefined, "---\u2028a\n---"],
  ];
  test.each(cases)("splits %p", (text, yaml, body) => {
    expect(splitFrontmatter(text)).toEqual({ yaml, body });
  });
});
