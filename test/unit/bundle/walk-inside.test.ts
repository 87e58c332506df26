import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { walkInside, type WalkResult } from "../../../src/bundle/path-safety.ts";
import { tempDir, writeTree } from "../../helpers/tmp.ts";

describe("walkInside", () => {
  const tmp = tempDir("gjc-walk-");
  afterAll(() => tmp.cleanup());
  const root = join(tmp.path, "bundle");
  writeTree(root, { "a.ts": "a", "dir/b.ts": "b", "dir/sub/c.ts": "c", "other/d.ts": "d" });
  symlinkSync("dir", join(root, "linkdir"));
  symlinkSync("a.ts", join(root, "link.ts"));
  symlinkSync("nowhere", join(root, "dangling"));
  execFileSync("mkfifo", [join(root, "fifo")]);

  const cases: [string, "file" | "dir", WalkResult][] = [
    ["a.ts", "file", { ok: true, kind: "file" }],
    ["./a.ts", "file", { ok: true, kind: "file" }],
    ["dir//b.ts", "file", { ok: true, kind: "file" }],
    ["dir/./sub/c.ts", "file", { ok: true, kind: "file" }],
    ["dir/sub", "dir", { ok: true, kind: "dir" }],
    ["", "dir", { ok: true, kind: "dir" }],
    [".", "file", { ok: false, reason: "not_file", at: "." }],
    ["dir", "file", { ok: false, reason: "not_file", at: "dir" }],
    ["a.ts", "dir", { ok: false, reason: "not_dir", at: "a.ts" }],
    ["dir/missing.ts", "file", { ok: false, reason: "missing", at: "dir/missing.ts" }],
    ["missing/x.ts", "file", { ok: false, reason: "missing", at: "missing" }],
    ["a.ts/x", "file", { ok: false, reason: "missing", at: "a.ts" }],
    ["linkdir/b.ts", "file", { ok: false, reason: "symlink", at: "linkdir" }],
    ["link.ts", "file", { ok: false, reason: "symlink", at: "link.ts" }],
    ["dangling", "file", { ok: false, reason: "symlink", at: "dangling" }],
    ["fifo", "file", { ok: false, reason: "special", at: "fifo" }],
    ["fifo/x", "file", { ok: false, reason: "missing", at: "fifo" }],
  ];
  const roots = [
    root,
    `${root}/`,
    `${root}//`,
    join(tmp.path, "bundle", ".", "dir", ".."),
    `${tmp.path}/./bundle`,
    relative(process.cwd(), root),
  ];

  test.each(roots)("judges each component without following links, under root %p", (r) => {
    for (const [rel, want, verdict] of cases)
      expect({ rel, want, verdict: walkInside(r, rel, want) }).toEqual({ rel, want, verdict });
  });
});
