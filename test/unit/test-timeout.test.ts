/**
 * The test timeout from test/preload.ts reaches every test file of a run, not only the first
 * (Bun applies a preload's setDefaultTimeout to the first file only, oven-sh/bun#43787). Run
 * with a 200 ms timeout, a test in the second file that takes 1.5 s must time out at 200 ms;
 * under Bun's own 5 s default it would pass.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../helpers/cli.ts";
import { tempDir } from "../helpers/tmp.ts";

test("the preload's timeout applies to the second test file too", async () => {
  const t = tempDir("gjc-timeout-");
  try {
    writeFileSync(join(t.path, "a.test.ts"), 'import { test } from "bun:test";\ntest("first", () => {});\n');
    writeFileSync(
      join(t.path, "b.test.ts"),
      'import { test } from "bun:test";\ntest("second", async () => { await Bun.sleep(1500); });\n',
    );
    const proc = Bun.spawn(
      [process.execPath, "test", "--preload", join(repoRoot, "test", "preload.ts"), "./a.test.ts", "./b.test.ts"],
      {
        cwd: t.path,
        env: { ...process.env, GJC_TEST_TIMEOUT_MS: "200" },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    const report = out + err;
    expect(report).toContain("(pass) first");
    expect(report).toContain("this test timed out after 200ms");
    expect(code).toBe(1);
  } finally {
    t.cleanup();
  }
});
