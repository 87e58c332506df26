import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { repoRoot } from "../../helpers/cli.ts";

describe("store documents", () => {
  test("docs/json/<verb>.schema.json are generated from src/store/documents.ts and up to date", () => {
    const r = Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "gen-store-schemas.ts"), "--check"], {
      cwd: repoRoot,
      stderr: "pipe",
    });
    const lines = r.stderr.toString().trim().split("\n");
    expect({ exit: r.exitCode, stale: lines.filter((l) => !l.endsWith("up to date")) }).toEqual({ exit: 0, stale: [] });
    expect(lines).toHaveLength(11);
  });
});
