import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../../src/cli/main.ts";
import { createContext } from "../../../src/core/context.ts";
import { emptySessionDocument } from "../../../src/gjcsession/fast-start.ts";
import { tempDir } from "../../helpers/tmp.ts";

let tmp: { path: string; cleanup(): void };
beforeEach(() => {
  tmp = tempDir("gjc-fast-");
  mkdirSync(join(tmp.path, "project"), { recursive: true });
});
afterEach(() => tmp.cleanup());

/** What the full CLI path prints for the same invocation. */
async function fullPath(args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  let out = "";
  const code = await main(["plugin", "session", ...args], { stdout: (t) => void (out += t), stderr: () => {}, ctx: createContext({ env, cwd, quiet: true }) });
  expect(code).toBe(0);
  return out;
}

for (const [label, args] of [
  ["--json", ["--json"]],
  ["--project <dir>", ["--project", "sub", "--json"]],
  ["--project=<dir>", ["--json", "--project=../project"]],
] as const) {
  test(`with nothing installed the fast answer equals the full path byte for byte (${label})`, async () => {
    const cwd = join(tmp.path, "project");
    mkdirSync(join(cwd, "sub"), { recursive: true });
    for (const env of [{ HOME: tmp.path, GJC_USER_DIR: "rel-user" }, { HOME: tmp.path }] as Record<string, string>[]) {
      const fast = await emptySessionDocument([...args], env, cwd);
      expect(fast).toBeString();
      expect(`${fast}\n`).toBe(await fullPath([...args], env, cwd));
    }
  });
}

test("anything else falls through to the full CLI", async () => {
  const cwd = join(tmp.path, "project");
  const env = { HOME: tmp.path };
  for (const args of [[], ["--check-runtime", "--json"], ["--json", "--help"], ["--json", "--json"], ["--json", "--project"], ["--json", "--bogus"]]) {
    expect(await emptySessionDocument(args, env, cwd)).toBeUndefined();
  }
  expect(await emptySessionDocument(["--json"], {}, cwd)).toBeUndefined();
  // Any registry, even an empty or a corrupt one, is the full path's business.
  mkdirSync(join(cwd, ".gjc/gjc-plugins"), { recursive: true });
  writeFileSync(join(cwd, ".gjc/gjc-plugins/registry.json"), "{");
  expect(await emptySessionDocument(["--json"], env, cwd)).toBeUndefined();
  // A scope root that is a file: ENOTDIR, not ENOENT.
  writeFileSync(join(tmp.path, "user-file"), "x");
  expect(await emptySessionDocument(["--json"], { HOME: tmp.path, GJC_USER_DIR: join(tmp.path, "user-file") }, join(tmp.path, "elsewhere"))).toBeUndefined();
});
