import { describe, expect, test } from "bun:test";
import { posix, win32 } from "node:path";
import { relativePathProblem } from "../../../src/bundle/path-safety.ts";
import { DiagnosticSink } from "../../../src/core/diagnostics.ts";
import { checkExecutable } from "../../../src/families/c2/executable.ts";
import { checkStdioLauncher } from "../../../src/policy/launcher.ts";
import { judgeEntryName } from "../../../src/sources/tar/entry-name.ts";

/**
 * Every judge of a path that comes from a manifest or an archive, fed the spellings that
 * mean something else on Windows. The binary ships for windows-x64 too, so a path accepted
 * here must stay inside the root under path.win32 as well as path.posix.
 */
const hostile = [
  "C:\\Windows\\system32\\evil.dll",
  "C:evil.txt",
  "c:/evil.txt",
  "\\\\server\\share\\x",
  "\\\\?\\C:\\x",
  "\\\\.\\pipe\\x",
  "..\\outside.txt",
  "a\\..\\..\\outside.txt",
  "a/..\\..\\x",
  "\\rooted.txt",
  "/etc/passwd",
  "../outside.txt",
  "a/../../x",
  "file.txt:stream",
  "a/b:c/d",
];

const benign = [
  "plugin.json",
  "bin/server",
  "deep/er/path/file.ts",
  "dots.in.name/x.y.z",
  "spaces are fine/a b.md",
  "unicodé/naïve.txt",
];

function staysInside(rel: string): boolean {
  const w = win32.resolve("C:\\root", rel);
  const p = posix.resolve("/root", rel);
  return w.startsWith("C:\\root\\") && p.startsWith("/root/");
}

describe("Windows-style paths are refused by every path judge", () => {
  for (const p of hostile) {
    test(`declared manifest path ${JSON.stringify(p)}`, () => {
      expect(relativePathProblem(p)).toBeDefined();
    });
    test(`archive entry ${JSON.stringify(p)}`, () => {
      expect(judgeEntryName(p).ok).toBe(false);
    });
    test(`stdio launcher script and cwd ${JSON.stringify(p)}`, () => {
      expect(checkStdioLauncher({ command: "node", args: [p] }).ok).toBe(false);
      expect(checkStdioLauncher({ command: "node", args: ["server.js"], cwd: p }).ok).toBe(false);
    });
  }

  for (const p of hostile.filter((x) => x.includes("/") || x.includes("\\"))) {
    test(`C2 bundle-relative executable ${JSON.stringify(p)}`, () => {
      const sink = new DiagnosticSink();
      checkExecutable(p, {
        sink,
        path: "plugin.json#/extensions/dev.codetwo/runtime/command",
        label: "runtime command",
        code: "invalid_runtime",
      });
      expect(sink.hasErrors).toBe(true);
    });
  }
});

describe("paths the judges accept stay inside the root on both platforms", () => {
  for (const p of benign) {
    test(JSON.stringify(p), () => {
      expect(relativePathProblem(p)).toBeUndefined();
      expect(judgeEntryName(p)).toEqual({ ok: true, path: p });
      expect(staysInside(p)).toBe(true);
    });
  }
});
