import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../../src/bundle/hash.ts";
import type { StoredFile } from "../../../src/store/files.ts";
import { verifyFiles } from "../../../src/store/verify.ts";
import { tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest("gjc-verify-");

/** A content directory with these files, and its installed-file records. */
function installed(files: Record<string, string | Uint8Array>): { root: string; records: StoredFile[] } {
  const root = fresh();
  const records: StoredFile[] = [];
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), data, { mode: 0o644 });
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    records.push({ path, sha256: sha256Hex(bytes), bytes: bytes.length, mode: 0o644 });
  }
  return { root, records };
}

describe("verifyFiles", () => {
  test("a clean directory: every file hashed once, the kept files' bytes are the bytes hashed", () => {
    // 3 MiB crosses the 1 MiB read chunk; the empty file is a read of nothing.
    const big = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => i % 251);
    const { root, records } = installed({
      "a.md": "# A\n",
      "sub/b.ts": "export {};\n",
      "big.bin": big,
      "streamed.bin": big.slice(1),
      "empty.txt": "",
    });
    const check = verifyFiles(root, records, { keep: new Set(["a.md", "big.bin", "empty.txt"]) });
    expect(check).toMatchObject({ ok: true, checked: 5, problems: [] });
    expect([...check.kept.keys()].sort()).toEqual(["a.md", "big.bin", "empty.txt"]);
    expect(new TextDecoder().decode(check.kept.get("a.md"))).toBe("# A\n");
    expect(Buffer.from(check.kept.get("big.bin")!).equals(Buffer.from(big))).toBe(true);
    expect(check.kept.get("empty.txt")!.length).toBe(0);
  });

  test("a changed, grown, missing or linked file is drift, and no bytes of it are kept", () => {
    const big = new Uint8Array(2 * 1024 * 1024).fill(7);
    const { root, records } = installed({
      "same-size.md": "aaaa",
      "grown.md": "bbbb",
      "gone.md": "cccc",
      "link.md": "dddd",
      "fine.md": "eeee",
      "big-changed.bin": big,
    });
    writeFileSync(join(root, "same-size.md"), "AAAA");
    writeFileSync(
      join(root, "big-changed.bin"),
      big.map((b, i) => (i === big.length - 1 ? 8 : b)),
    );
    appendFileSync(join(root, "grown.md"), "more");
    unlinkSync(join(root, "gone.md"));
    unlinkSync(join(root, "link.md"));
    symlinkSync(join(root, "fine.md"), join(root, "link.md"));
    writeFileSync(join(root, "extra.md"), "not recorded");
    const check = verifyFiles(root, records, { keep: new Set(records.map((r) => r.path)) });
    expect(check.ok).toBe(false);
    expect(check.problems.map((p) => `${p.kind} ${p.path}`).sort()).toEqual([
      "changed big-changed.bin",
      "changed grown.md",
      "changed same-size.md",
      "extra extra.md",
      "missing gone.md",
      "symlink link.md",
    ]);
    expect([...check.kept.keys()]).toEqual(["fine.md"]);
  });
});
