import { describe, expect, test } from "bun:test";
import { parseFrontmatter } from "../../../src/families/c2/frontmatter.ts";

describe("parseFrontmatter", () => {
  test("reads YAML between --- lines and returns the body", () => {
    const r = parseFrontmatter("---\nname: x\ntools: [Read, Grep]\n---\n\nBody\n");
    expect(r).toEqual({ ok: true, doc: { data: { name: "x", tools: ["Read", "Grep"] }, body: "\nBody\n" } });
  });
  test("CRLF and a BOM are accepted", () => {
    const r = parseFrontmatter("\uFEFF---\r\nname: x\r\n---\r\nBody");
    expect(r.ok && r.doc.data.name).toBe("x");
  });
  test("no frontmatter: empty metadata, whole text is the body", () => {
    expect(parseFrontmatter("Just text\n")).toEqual({ ok: true, doc: { data: {}, body: "Just text\n" } });
  });
  test("unclosed block, invalid YAML and non-mapping YAML are refused with a reason", () => {
    expect(parseFrontmatter("---\nname: x\n").ok).toBe(false);
    expect(parseFrontmatter("---\nname: [x\n---\nb").ok).toBe(false);
    expect(parseFrontmatter("---\n- a\n- b\n---\nb").ok).toBe(false);
  });
});
