import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../helpers/cli.ts";
import { tempDir } from "../helpers/tmp.ts";

const out = tempDir("gjc-release-");
afterAll(() => out.cleanup());

const host = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;

test("bun run release builds the host binary, writes SHA256SUMS that sha256sum -c accepts, and smoke-tests it", async () => {
  const proc = Bun.spawn([process.execPath, join(repoRoot, "scripts", "release.ts"), host], {
    cwd: repoRoot,
    env: { ...process.env, GJC_RELEASE_DIR: out.path },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect(code).toBe(0);
  expect(err).toContain("smoke-tested");
  const sums = readFileSync(join(out.path, "SHA256SUMS"), "utf8").trim().split("\n");
  expect(sums).toHaveLength(1);
  expect(sums[0]).toMatch(new RegExp(`^[0-9a-f]{64}  gjc-${host}$`));
  const check = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: out.path });
  expect(check.exitCode).toBe(0);
  const version = Bun.spawnSync([join(out.path, `gjc-${host}`), "--version"]);
  expect(version.stdout.toString().trim()).toBe(`gjc ${JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version}`);
});
