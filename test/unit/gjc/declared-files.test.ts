import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { DiagnosticSink } from "../../../src/core/diagnostics.ts";
import { GJC_LIMITS, type BundleLimits } from "../../../src/bundle/limits.ts";
import { DeclaredFileReader } from "../../../src/families/gjc/declared-files.ts";
import { writeTree, tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest("gjc-declared-");
const sha = (s: string | Uint8Array) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
function reader(root: string, limits: BundleLimits = GJC_LIMITS) {
  const sink = new DiagnosticSink();
  return { sink, files: new DeclaredFileReader(root, sink, limits) };
}

describe("DeclaredFileReader", () => {
  test("reads a declared file once, hashes exactly its bytes and keeps its mode", () => {
    const root = writeTree(fresh(), { "tools/a.ts": "alpha", "bin/x": { content: "#!/bin/sh\n", mode: 0o755 } });
    const { sink, files } = reader(root);
    const a = files.read("tools/a.ts", "#/tools/0/path", "Tool")!;
    expect(a).toMatchObject({ path: "tools/a.ts", bytes: 5, sha256: sha("alpha"), mode: 0o644 });
    expect(new TextDecoder().decode(a.data)).toBe("alpha");
    expect(files.read("tools/a.ts", "#/hooks/0/path", "Hook")).toBe(a);
    expect(files.read("bin/x", "#", "x")!.mode).toBe(0o755);
    expect(sink.items).toEqual([]);
  });

  test("the plan lists the manifest first, then paths in code-unit order, each once", () => {
    const root = writeTree(fresh(), {
      "gajae-plugin.json": "{}",
      "b.ts": "b",
      "B.md": "B",
      "a/z.ts": "z",
      "a.ts": "a",
    });
    const { files } = reader(root);
    for (const p of ["b.ts", "a/z.ts", "gajae-plugin.json", "B.md", "a.ts", "b.ts"]) files.read(p, "#", "f");
    expect(files.planned().map((f) => f.path)).toEqual(["gajae-plugin.json", "B.md", "a.ts", "a/z.ts", "b.ts"]);
    expect([...files.contents().keys()]).toEqual(["gajae-plugin.json", "B.md", "a.ts", "a/z.ts", "b.ts"]);
  });

  test.each([
    ["", "is empty"],
    ["/etc/passwd", "is absolute"],
    ["../outside.ts", '".." segment'],
    ["a/../../b", '".." segment'],
    ["./a.ts", '"." segment'],
    ["a//b.ts", "empty segment"],
    ["a/", "empty segment"],
    ["a\\b.ts", "backslash"],
    ["C:/x.ts", "colon"],
    ["file.ts:stream", "colon"],
    ["a\u0000b", "control character"],
    ["a\u001b[2J", "control character"],
  ])("the declared path %p is refused lexically (%s) with missing_file, before touching the disk", (rel, why) => {
    const root = fresh();
    const { sink, files } = reader(root);
    expect(files.read(rel, "#/tools/0/path", "Tool")).toBeUndefined();
    expect(sink.items.map((d) => d.code)).toEqual(["missing_file"]);
    expect(sink.items[0].message).toContain(why);
    expect(sink.items[0].path).toBe("#/tools/0/path");
    expect(sink.items[0].message).not.toContain("\u001b");
  });

  test("a missing file and a directory are missing_file", () => {
    const root = writeTree(fresh(), { "dir/x": "x" });
    const { sink, files } = reader(root);
    files.read("nope.ts", "#a", "Tool");
    files.read("dir", "#b", "Tool");
    files.read("dir/x/y", "#c", "Tool");
    expect(sink.items.map((d) => [d.code, d.path])).toEqual([
      ["missing_file", "#a"],
      ["missing_file", "#b"],
      ["missing_file", "#c"],
    ]);
  });

  test("a symlink is never followed: to a file outside, to a file inside, or as a directory on the way", () => {
    const root = writeTree(fresh(), { "real.ts": "inside", "sub/real.ts": "inside" });
    const outside = writeTree(fresh(), { "secret.txt": "s3cret" });
    symlinkSync(join(outside, "secret.txt"), join(root, "escape.ts"));
    symlinkSync("real.ts", join(root, "inner.ts"));
    symlinkSync(outside, join(root, "linkdir"));
    symlinkSync("sub", join(root, "subln"));
    const { sink, files } = reader(root);
    for (const p of ["escape.ts", "inner.ts", "linkdir/secret.txt", "subln/real.ts"])
      expect(files.read(p, `#${p}`, "Tool")).toBeUndefined();
    expect(sink.items.map((d) => d.code)).toEqual(Array(4).fill("security_policy"));
    expect(sink.items[2].message).toContain('symbolic link "linkdir"');
    expect(files.planned()).toEqual([]);
  });

  test("a FIFO is refused without being opened (the read would block otherwise)", () => {
    const root = fresh();
    execFileSync("mkfifo", [join(root, "pipe.ts")]);
    const { sink, files } = reader(root);
    expect(files.read("pipe.ts", "#", "Tool")).toBeUndefined();
    expect(sink.items[0]).toMatchObject({ code: "security_policy" });
    expect(sink.items[0].message).toContain("FIFO");
  });

  test("paths that differ only by case or Unicode normalization are refused", () => {
    const root = writeTree(fresh(), {
      "tools/a.ts": "1",
      "Tools/a.ts": "2",
      "caf\u00e9.md": "3",
      "cafe\u0301.md": "4",
    });
    const { sink, files } = reader(root);
    files.read("tools/a.ts", "#0", "Tool");
    files.read("Tools/a.ts", "#1", "Tool");
    files.read("caf\u00e9.md", "#2", "Appendix");
    files.read("cafe\u0301.md", "#3", "Appendix");
    expect(sink.items.map((d) => [d.code, d.path])).toEqual([
      ["invalid_manifest", "#1"],
      ["invalid_manifest", "#3"],
    ]);
  });

  test("GJC_LIMITS: a file over 16 MiB is refused without reading it", () => {
    const root = fresh();
    writeFileSync(join(root, "big.bin"), "");
    truncateSync(join(root, "big.bin"), GJC_LIMITS.maxFileBytes + 1);
    writeFileSync(join(root, "edge.bin"), "");
    truncateSync(join(root, "edge.bin"), 16);
    const { sink, files } = reader(root);
    expect(files.read("big.bin", "#", "Tool")).toBeUndefined();
    expect(sink.items[0].code).toBe("security_policy");
    expect(sink.items[0].message).toContain("16 MiB");
  });

  test("GJC_LIMITS: 1,024-byte paths and depth 32 are the edges", () => {
    const root = fresh();
    const deep = Array.from({ length: 32 }, (_, i) => `d${i}`).join("/");
    mkdirSync(join(root, deep), { recursive: true });
    writeFileSync(join(root, deep, "f"), "x");
    mkdirSync(join(root, deep, "d32"));
    writeFileSync(join(root, deep, "d32", "f"), "x");
    const { sink, files } = reader(root);
    expect(files.read(`${deep}/f`, "#ok", "f")).toBeDefined();
    expect(files.read(`${deep}/d32/f`, "#deep", "f")).toBeUndefined();
    expect(files.read(`${"a".repeat(1021)}/bc`, "#edge", "f")).toBeUndefined(); // 1,024 bytes: allowed, just absent
    expect(files.read(`${"a".repeat(1022)}/bc`, "#long", "f")).toBeUndefined();
    expect(sink.items.map((d) => [d.code, d.path])).toEqual([
      ["security_policy", "#deep"],
      ["missing_file", "#edge"],
      ["security_policy", "#long"],
    ]);
  });

  test("file count and total size budgets stop the reading", () => {
    const root = writeTree(fresh(), { a: "12345", b: "12345", c: "12345", d: "1" });
    const small: BundleLimits = { ...GJC_LIMITS, maxFiles: 2, maxTotalBytes: 1000 };
    const r1 = reader(root, small);
    expect(r1.files.read("a", "#a", "f")).toBeDefined();
    expect(r1.files.read("b", "#b", "f")).toBeDefined();
    expect(r1.files.read("c", "#c", "f")).toBeUndefined();
    expect(r1.files.read("d", "#d", "f")).toBeUndefined();
    expect(r1.sink.items.map((d) => [d.code, d.path])).toEqual([["security_policy", "#c"]]);
    expect(r1.sink.items[0].message).toContain("more than 2 files");

    const r2 = reader(root, { ...GJC_LIMITS, maxTotalBytes: 9 });
    r2.files.read("a", "#a", "f");
    r2.files.read("b", "#b", "f");
    r2.files.read("d", "#d", "f");
    expect(r2.sink.items.map((d) => [d.code, d.path])).toEqual([["security_policy", "#b"]]);
    expect(r2.files.planned().map((f) => f.path)).toEqual(["a"]);
  });

  test("the root may be spelled with a trailing slash, '.' or '..' segments, or relatively: the same files are read", () => {
    const root = writeTree(fresh(), { "tools/a.ts": "alpha", "b.md": "beta" });
    const spellings = [
      root,
      `${root}/`,
      `${root}//`,
      join(root, "tools", ".."),
      `${root}/./tools/..`,
      relative(process.cwd(), root),
    ];
    const expected = sha("alpha");
    for (const spelled of spellings) {
      const { sink, files } = reader(spelled);
      expect({
        spelled,
        sha: files.read("tools/a.ts", "#", "Tool")?.sha256,
        b: files.read("b.md", "#", "Doc")?.bytes,
        diagnostics: sink.items,
      }).toEqual({ spelled, sha: expected, b: 4, diagnostics: [] });
    }
  });
});
