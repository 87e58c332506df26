import { describe, expect, test } from "bun:test";
import { CLEAN_RELATIVE_PATH, relativePathProblem } from "../../../src/bundle/path-safety.ts";

// CLEAN_RELATIVE_PATH is the fast form of relativePathProblem: it must accept exactly the
// paths that have no problem, never one more.
describe("CLEAN_RELATIVE_PATH", () => {
  const listed = [
    "a", "a.ts", "a/b.ts", "tools/x/y/z.ts", ".hidden", "a/.b", "..a", "a..b", "...", "a/...", "a/..b/c", "-", "a b", "ü/ß.md", "😀/x",
    "", ".", "..", "./a", "../a", "a/.", "a/..", "a/./b", "a/../b", "/a", "a/", "a//b", "//", "/", "a\\b", "\\", "c:x", "C:/x", "a:b/c",
    "a\u0000", "a\u0007b", "\u001f", "a\u007f", "a\u0080", "a\u009f", "a\u00a0", "\tx", "x\n", "\r", "a/\u0085", "\ud800", "a/\udfff/b",
  ];
  test.each(listed)("agrees with relativePathProblem on %p", (p) => {
    expect(CLEAN_RELATIVE_PATH.test(p)).toBe(relativePathProblem(p) === undefined);
  });

  test("agrees on 20,000 random paths over an alphabet of the characters that matter", () => {
    const alphabet = ["a", "b", ".", "/", "\\", ":", "\u0000", "\u001f", "\u007f", "\u009f", "\u00a0", " ", "é", "\ud83d", "\ude00", "-"];
    // A fixed-seed generator so a failure is reproducible.
    let seed = 42;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let n = 0; n < 20000; n++) {
      let p = "";
      const len = Math.floor(next() * 9);
      for (let i = 0; i < len; i++) p += alphabet[Math.floor(next() * alphabet.length)];
      if (CLEAN_RELATIVE_PATH.test(p) !== (relativePathProblem(p) === undefined)) expect({ p, clean: CLEAN_RELATIVE_PATH.test(p) }).toEqual({ p, clean: relativePathProblem(p) === undefined });
    }
  });
});
