import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectBundle } from "../../../src/bundle/collect.ts";
import { C2_LIMITS, type BundleLimits } from "../../../src/bundle/limits.ts";
import { writeTree, tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest();
const codes = (c: ReturnType<typeof collectBundle>) => c.diagnostics.map((d) => d.code);

describe("collectBundle", () => {
  test("hashes regular files, keeps modes, sorts by path", () => {
    const root = writeTree(fresh(), { "b.txt": "bee", "a/x.sh": { content: "#!/bin/sh\n", mode: 0o755 } });
    const c = collectBundle(root, C2_LIMITS);
    expect(c.diagnostics).toEqual([]);
    expect(c.files.map((f) => f.path)).toEqual(["a/x.sh", "b.txt"]);
    expect(c.files[0].mode).toBe(0o755);
    expect(c.files[1].sha256).toBe(new Bun.CryptoHasher("sha256").update("bee").digest("hex"));
    expect(c.totalBytes).toBe(13);
  });

  test("skips .git, node_modules, target and .venv at any depth but keeps dotfiles", () => {
    const root = writeTree(fresh(), {
      ".git/HEAD": "x",
      "node_modules/a/index.js": "x",
      "sub/target/out": "x",
      "sub/.venv/bin/python": "x",
      ".editorconfig": "x",
    });
    expect(collectBundle(root, C2_LIMITS).files.map((f) => f.path)).toEqual([".editorconfig"]);
  });

  test("never follows or copies symlinks", () => {
    const root = writeTree(fresh(), { "real.txt": "r" });
    const outside = writeTree(fresh(), { "secret.txt": "s" });
    symlinkSync(join(outside, "secret.txt"), join(root, "link.txt"));
    symlinkSync(outside, join(root, "linkdir"));
    const c = collectBundle(root, C2_LIMITS);
    expect(c.files.map((f) => f.path)).toEqual(["real.txt"]);
    expect(c.skippedLinks.sort()).toEqual(["link.txt", "linkdir"]);
  });

  test("refuses a FIFO without opening it", () => {
    const root = writeTree(fresh(), { "ok.txt": "x" });
    execFileSync("mkfifo", [join(root, "pipe")]);
    const c = collectBundle(root, C2_LIMITS);
    expect(codes(c)).toEqual(["special_file"]);
  });

  test("refuses names with control characters", () => {
    const root = fresh();
    writeFileSync(join(root, "bad\u0007name"), "x");
    expect(codes(collectBundle(root, C2_LIMITS))).toEqual(["unsafe_file_name"]);
  });

  test("refuses a name that is not UTF-8 (it reads back with U+FFFD, naming another file or none)", () => {
    const root = writeTree(fresh(), { "ok.txt": "x" });
    writeFileSync(Buffer.concat([Buffer.from(`${root}/a`), Buffer.from([0xff])]), "judged?");
    const c = collectBundle(root, C2_LIMITS);
    expect(codes(c)).toEqual(["unsafe_file_name"]);
    expect(c.files.map((f) => f.path)).toEqual(["ok.txt"]);
  });

  test("refuses case and NFC collisions", () => {
    const root = writeTree(fresh(), { "Readme.md": "a", "README.md": "b" });
    expect(codes(collectBundle(root, C2_LIMITS))).toEqual(["name_collision"]);
    const nfc = fresh();
    writeFileSync(join(nfc, "caf\u00e9"), "a");
    writeFileSync(join(nfc, "cafe\u0301"), "b");
    expect(codes(collectBundle(nfc, C2_LIMITS))).toEqual(["name_collision"]);
  });

  const small: BundleLimits = { ...C2_LIMITS, maxFiles: 3, maxFileBytes: 10, maxTotalBytes: 25, maxDepth: 2 };

  test("stops at the file-count budget", () => {
    const root = writeTree(fresh(), { a: "1", b: "2", c: "3", d: "4" });
    const c = collectBundle(root, small);
    expect(codes(c)).toEqual(["bundle_too_many_files"]);
    expect(c.aborted).toBe(true);
  });

  test("stops at the per-file and total byte budgets (limit itself allowed)", () => {
    expect(codes(collectBundle(writeTree(fresh(), { a: "x".repeat(10) }), small))).toEqual([]);
    expect(codes(collectBundle(writeTree(fresh(), { a: "x".repeat(11) }), small))).toEqual(["file_too_large"]);
    expect(
      codes(collectBundle(writeTree(fresh(), { a: "x".repeat(10), b: "x".repeat(10), c: "x".repeat(5) }), small)),
    ).toEqual([]);
    expect(
      codes(collectBundle(writeTree(fresh(), { a: "x".repeat(10), b: "x".repeat(10), c: "x".repeat(6) }), small)),
    ).toEqual(["bundle_too_large"]);
  });

  test("stops at the depth budget (root is depth 0)", () => {
    expect(codes(collectBundle(writeTree(fresh(), { "a/b/f": "x" }), small))).toEqual([]);
    expect(codes(collectBundle(writeTree(fresh(), { "a/b/c/f": "x" }), small))).toEqual(["bundle_too_deep"]);
  });

  test("enforces the byte length of paths when the family has one", () => {
    const root = fresh();
    mkdirSync(join(root, "d".repeat(200)));
    writeFileSync(join(root, "d".repeat(200), "f".repeat(100)), "x");
    expect(codes(collectBundle(root, { ...C2_LIMITS, maxPathBytes: 250 }))).toEqual(["path_too_long"]);
  });
});
