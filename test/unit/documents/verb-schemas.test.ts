import { describe, expect, test } from "bun:test";
import { join } from "node:path";

describe("docs/json verb schemas", () => {
  test("are what scripts/gen-verb-schemas.ts writes (run it when this fails)", () => {
    const r = Bun.spawnSync(
      [process.execPath, join(import.meta.dir, "../../../scripts/gen-verb-schemas.ts"), "--check"],
      { stdout: "pipe", stderr: "pipe" },
    );
    expect({
      exit: r.exitCode,
      stale: r.stderr
        .toString()
        .split("\n")
        .filter((l) => l.includes("stale")),
    }).toEqual({ exit: 0, stale: [] });
  });
});
