import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { lstatSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { walkInside, type WalkResult } from "../../../src/bundle/path-safety.ts";
import { tempDir, writeTree } from "../../helpers/tmp.ts";

/** walkInside as it was written first (filter, join per component): the oracle. */
function walkInsideOracle(root: string, rel: string, want: "file" | "dir"): WalkResult {
  const parts = rel.split("/").filter((s) => s !== "" && s !== ".");
  let current = root;
  for (let i = 0; i < parts.length; i++) {
    current = join(current, parts[i]);
    const at = parts.slice(0, i + 1).join("/");
    let st;
    try {
      st = lstatSync(current);
    } catch {
      return { ok: false, reason: "missing", at };
    }
    if (st.isSymbolicLink()) return { ok: false, reason: "symlink", at };
    const last = i === parts.length - 1;
    if (!last && !st.isDirectory()) return { ok: false, reason: "missing", at };
    if (last) {
      if (want === "dir") return st.isDirectory() ? { ok: true, kind: "dir" } : { ok: false, reason: "not_dir", at };
      if (st.isFile()) return { ok: true, kind: "file" };
      if (st.isDirectory()) return { ok: false, reason: "not_file", at };
      return { ok: false, reason: "special", at };
    }
  }
  return want === "dir" ? { ok: true, kind: "dir" } : { ok: false, reason: "not_file", at: rel };
}

describe("walkInside", () => {
  const tmp = tempDir("gjc-walk-");
  afterAll(() => tmp.cleanup());
  const root = join(tmp.path, "bundle");
  writeTree(root, { "a.ts": "a", "dir/b.ts": "b", "dir/sub/c.ts": "c", "other/d.ts": "d" });
  symlinkSync("dir", join(root, "linkdir"));
  symlinkSync("a.ts", join(root, "link.ts"));
  symlinkSync("nowhere", join(root, "dangling"));
  execFileSync("mkfifo", [join(root, "fifo")]);

  const rels = [
    "", ".", "./", "a.ts", "./a.ts", "a.ts/", "dir", "dir/", "dir/b.ts", "dir//b.ts", "dir/./b.ts", "dir/sub/c.ts", "dir/sub",
    "dir/missing.ts", "missing/x.ts", "a.ts/x", "linkdir/b.ts", "linkdir", "link.ts", "dangling", "fifo", "fifo/x",
    "dir/../a.ts", "../bundle/a.ts", "dir/sub/../../a.ts", "dir/../linkdir/b.ts", "..", "../..", "dir/..", "dir/../dir/b.ts",
    "other/../dir/sub/c.ts", "/a.ts", "//dir//sub//c.ts",
  ];
  const roots = [root, `${root}/`, `${root}//`, join(tmp.path, "bundle", ".", "dir", ".."), `${tmp.path}/./bundle`, relative(process.cwd(), root), "/"];

  test.each(roots)("gives the same verdict as the first implementation under root %p", (r) => {
    for (const rel of rels) {
      for (const want of ["file", "dir"] as const) {
        expect({ rel, want, verdict: walkInside(r, rel, want) }).toEqual({ rel, want, verdict: walkInsideOracle(r, rel, want) });
      }
    }
  });
});
