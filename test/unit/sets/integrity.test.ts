import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { repoRoot } from "../../helpers/cli.ts";
import { canonicalFileList, integrityOf } from "../../../src/store/integrity.ts";

describe("integrity", () => {
  test("is the sha256 of the documented encoding, sorted by path bytes, whatever the input order", () => {
    const files = [
      { path: "tools/b.ts", mode: 0o755, sha256: "b".repeat(64) },
      { path: "gajae-plugin.json", mode: 0o644, sha256: "a".repeat(64) },
      { path: "tools/a b.ts", mode: 0o644, sha256: "c".repeat(64) },
    ];
    const text = `gajae-plugin.json\u00000644\u0000${"a".repeat(64)}\ntools/a b.ts\u00000644\u0000${"c".repeat(64)}\ntools/b.ts\u00000755\u0000${"b".repeat(64)}\n`;
    expect(canonicalFileList(files)).toBe(text);
    expect(integrityOf(files)).toBe(`sha256:${createHash("sha256").update(text).digest("hex")}`);
    expect(integrityOf([...files].reverse())).toBe(integrityOf(files));
    expect(integrityOf([{ ...files[0], mode: 0o644 }, files[1], files[2]])).not.toBe(integrityOf(files));
  });

  test("the set verbs' document schemas are generated and up to date (plugins-lock.schema.json: test/unit/store/disk-schemas.test.ts)", () => {
    const r = Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "gen-sets-schemas.ts"), "--check"], {
      cwd: repoRoot,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr.toString()).toContain("docs/json/sync.schema.json up to date\n");
    expect(r.stderr.toString()).not.toContain("stale");
  });
});
