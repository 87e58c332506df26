/**
 * scripts/bench/security-cost.bench.ts measures issue #12's defences by building the source
 * with security-off.patch applied. A change to the patched functions must update the patch in
 * the same commit, or that bench would fail only when someone next runs it.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const repoRoot = join(import.meta.dir, "..", "..", "..");

test("security-off.patch still applies to src/ (update it with the functions it switches off)", () => {
  const check = Bun.spawnSync(["git", "apply", "--check", join(repoRoot, "scripts", "bench", "security-off.patch")], {
    cwd: repoRoot,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect({ exit: check.exitCode, stderr: check.stderr.toString() }).toEqual({ exit: 0, stderr: "" });
});
