/**
 * The one relative-path judge (src/bundle/path-safety.ts) and every place that judges a path
 * a bundle, an archive, a registry or a C2 record names: each refuses the same bad cases.
 * (One of the four copies this replaced accepted `a\..\..\x`, `C:x` and NUL.)
 */
import { describe, expect, test } from "bun:test";
import { isSafeRelativePath, relativePathProblem } from "../../../src/bundle/path-safety.ts";
import { recordProblem } from "../../../src/c2store/record.ts";
import { checkStdioLauncher } from "../../../src/policy/launcher.ts";
import { judgeEntryName } from "../../../src/sources/tar/entry-name.ts";

const BAD = [
  "",
  "/etc/passwd",
  "a\\..\\..\\x",
  "..\\x",
  "C:x",
  "C:\\x",
  "c:/x",
  "a/b:stream",
  "a\u0000b",
  "a\nb",
  "a\u009bb",
  "\u007f",
  "..",
  ".",
  "a/../b",
  "a/./b",
  "a//b",
  "../x",
  "x/..",
  "a/",
  "/",
];
const GOOD = ["a", "a/b", "bin/server.js", "..a", "a..", ".hidden/x", "a b/ü.txt", "...", "a/.../b"];

describe("relativePathProblem", () => {
  test.each(BAD)("refuses %p with a reason", (p) => {
    expect(relativePathProblem(p)).toBeString();
    expect(isSafeRelativePath(p)).toBe(false);
  });
  test.each(GOOD)("accepts %p", (p) => {
    expect(relativePathProblem(p)).toBeUndefined();
  });
});

describe("every caller refuses the bad cases", () => {
  test("archive entry names (after the tolerated ./ prefix and trailing /)", () => {
    for (const p of BAD.filter((p) => p !== "" && p !== "." && p !== "a/" && p !== "/"))
      expect([p, judgeEntryName(p).ok]).toEqual([p, false]);
    for (const p of GOOD) expect(judgeEntryName(p)).toEqual({ ok: true, path: p });
  });

  test("stdio launcher scripts", () => {
    for (const p of BAD.filter((p) => p !== ""))
      expect([p, checkStdioLauncher({ command: "node", args: [p] }, "/nonexistent-root").ok]).toEqual([p, false]);
  });

  test("files of a C2 installed record", () => {
    const record = (path: string) => ({
      schema_version: 1,
      id: "demo-0123abcd",
      name: "demo",
      version: "1.0.0",
      standard_version: "1.2.0",
      enabled: true,
      trusted: false,
      scope: "user",
      source: { kind: "local", spec: "/x", display: "Local", identity: "local:/x", resolved: {}, catalog: null },
      installed_at: "t",
      updated_at: "t",
      files: [{ path, sha256: "0".repeat(64), size: 1, mode: 0o644 }],
      total_bytes: 1,
      contributions: {},
      components: [],
      diagnostics: [],
      quarantine: null,
      manifest: { name: "demo", version: "1.0.0", codetwo: { runtime: null, commands: [] } },
    });
    for (const p of BAD)
      expect([p, recordProblem(record(p), "demo-0123abcd")]).toEqual([p, expect.stringContaining("unsafe file path")]);
    expect(recordProblem(record("a/b"), "demo-0123abcd") ?? "").not.toContain("unsafe file path");
  });
});
