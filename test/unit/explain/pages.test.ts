import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CODES } from "../../../src/core/codes.ts";
import { GjcError } from "../../../src/core/errors.ts";
import { ExitCode } from "../../../src/core/exit-codes.ts";
import { explainCode, listCodes } from "../../../src/explain/explain.ts";
import { pagesModuleSource } from "../../../src/explain/index-source.ts";
import { pageHeading, pageSummary } from "../../../src/explain/page.ts";
import { PAGES } from "../../../src/explain/pages.generated.ts";
import { repoRoot } from "../../helpers/cli.ts";

const docsDir = join(repoRoot, "docs", "errors");
const files = readdirSync(docsDir)
  .filter((f) => f.endsWith(".md"))
  .sort();

describe("docs/errors pages", () => {
  test("every code of the table (src/core/codes.ts) has its page, and every page a code", () => {
    expect([...CODES].sort() as string[]).toEqual(files.map((f) => f.slice(0, -3)));
    expect(new Set(CODES).size).toBe(CODES.length);
  });

  test("the committed index is the table's (run bun scripts/gen-error-index.ts when this fails)", () => {
    const committed = readFileSync(join(repoRoot, "src", "explain", "pages.generated.ts"), "utf8");
    expect(committed).toBe(pagesModuleSource([...CODES]));
    expect(Object.keys(PAGES).sort()).toEqual([...CODES].sort());
  });

  test("the embedded text is the file's text", () => {
    for (const f of files) expect(PAGES[f.slice(0, -3)]).toBe(readFileSync(join(docsDir, f), "utf8"));
  });

  test.each(files)("%s: heading, one-line summary, meaning, example and fix", (file) => {
    const code = file.slice(0, -3);
    const text = readFileSync(join(docsDir, file), "utf8");
    expect(pageHeading(text)).toBe(code);
    const summary = pageSummary(code, text);
    expect(summary.length).toBeGreaterThan(10);
    expect(summary.startsWith("#")).toBe(false);
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual(["What it means", "Example", "How to fix"]);
    for (const body of text.split(/^## .+$/m).slice(1)) expect(body.trim().length).toBeGreaterThan(0);
    // Fences must close, or the rest of the page renders as code.
    expect((text.match(/^```/gm) ?? []).length % 2).toBe(0);
  });
});

describe("explainCode / listCodes", () => {
  test("a known code gives its page and summary", () => {
    const page = explainCode("security_policy");
    expect(page.code).toBe("security_policy");
    expect(page.text).toBe(readFileSync(join(docsDir, "security_policy.md"), "utf8"));
    expect(page.summary).toBe(pageSummary("security_policy", page.text));
  });

  test("an unknown code is a usage error naming the nearest code", () => {
    let caught: unknown;
    try {
      explainCode("invalid_manfest");
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(GjcError);
    const e = caught as GjcError;
    expect(e.code).toBe("unknown_code");
    expect(e.exit).toBe(ExitCode.usage);
    expect(e.message).toContain('Did you mean "invalid_manifest"?');
    expect(e.hint).toContain("gjc explain invalid_manifest");
  });

  test("a word far from every code gets no suggestion, and prototype names are not codes", () => {
    expect(() => explainCode("zzzzzzzzzzzz")).toThrow(/not a gjc error or diagnostic code\.$/);
    expect(() => explainCode("constructor")).toThrow(GjcError);
    expect(() => explainCode("__proto__")).toThrow(GjcError);
  });

  test("listCodes is sorted and covers every page", () => {
    const list = listCodes();
    expect(list.map((c) => c.code)).toEqual(files.map((f) => f.slice(0, -3)));
    expect(list.every((c) => c.summary.length > 0)).toBe(true);
  });
});
