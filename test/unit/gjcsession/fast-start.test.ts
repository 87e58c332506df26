import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../../src/cli/main.ts";
import { createContext } from "../../../src/core/context.ts";
import { fastSession } from "../../../src/gjcsession/fast-start.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { fixedNow, install, writeBundle } from "./_bundles.ts";

let tmp: { path: string; cleanup(): void };
let cwd: string;
beforeEach(() => {
  tmp = tempDir("gjc-fast-");
  cwd = join(tmp.path, "project");
  mkdirSync(join(cwd, "sub"), { recursive: true });
});
afterEach(() => tmp.cleanup());

/** What the full CLI path prints for the same invocation, and its exit status. */
async function fullPath(args: string[], env: Record<string, string>): Promise<{ text: string; exit: number }> {
  let out = "";
  const exit = await main(["plugin", "session", ...args], {
    stdout: (t) => void (out += t),
    stderr: () => {},
    ctx: createContext({ env, cwd, quiet: true }),
  });
  return { text: out, exit };
}

async function expectSame(args: string[], env: Record<string, string>) {
  const fast = await fastSession([...args], env, cwd);
  expect(fast).toBeDefined();
  const full = await fullPath([...args], env);
  expect(`${fast?.text}\n`).toBe(full.text);
  expect(fast?.exit).toBe(full.exit);
}

const forms = [["--json"], ["--project", "sub", "--json"], ["--json", "--project=../project"]];

test("with nothing installed the fast answer equals the full path byte for byte", async () => {
  for (const args of forms) {
    await expectSame(args, { HOME: tmp.path, GJC_USER_DIR: "rel-user" });
    await expectSame(args, { HOME: tmp.path });
  }
});

test("with bundles installed (and a corrupt scope) the fast answer equals the full path", async () => {
  const env = { HOME: tmp.path, GJC_USER_DIR: join(tmp.path, "user"), PATH: process.env.PATH ?? "" };
  const ctx = createContext({ cwd, env, quiet: true, now: fixedNow });
  await install(
    ctx,
    writeBundle(tmp.path, {
      name: "one",
      systemAppendix: "x",
      subskills: [{ name: "s", parent: "ralplan", phase: "planner", arg: "s" }],
    }),
    "user",
  );
  await install(ctx, writeBundle(tmp.path, { name: "two", tool: "two_tool" }), "project");
  await expectSame(["--json"], env);
  writeFileSync(join(cwd, ".gjc/gjc-plugins/registry.json"), "[]");
  await expectSame(["--json"], env);
  expect((await fastSession(["--json"], env, cwd))?.exit).toBe(3);
});

test("scope roots that exist without a registry are answered like the full path", async () => {
  const env = { HOME: tmp.path, GJC_USER_DIR: join(tmp.path, "user") };
  mkdirSync(join(tmp.path, "user"), { recursive: true });
  mkdirSync(join(cwd, ".gjc/gjc-plugins"), { recursive: true });
  await expectSame(["--json"], env);
});

test("anything else falls through to the full CLI", async () => {
  const env = { HOME: tmp.path };
  for (const args of [
    [],
    ["--check-runtime", "--json"],
    ["--json", "--help"],
    ["--json", "--json"],
    ["--json", "--project"],
    ["--json", "--bogus"],
  ]) {
    expect(await fastSession(args, env, cwd)).toBeUndefined();
  }
  expect(await fastSession(["--json"], {}, cwd)).toBeUndefined();
  // A file in the way of the scope root: ENOTDIR, not ENOENT (also one level further up).
  writeFileSync(join(tmp.path, "user-file"), "x");
  expect(
    await fastSession(["--json"], { HOME: tmp.path, GJC_USER_DIR: join(tmp.path, "user-file") }, cwd),
  ).toBeUndefined();
  expect(
    await fastSession(["--json"], { HOME: tmp.path, GJC_USER_DIR: join(tmp.path, "user-file", "deeper") }, cwd),
  ).toBeUndefined();
  // A directory where registry.json should be.
  mkdirSync(join(tmp.path, "odd", "registry.json"), { recursive: true });
  expect(await fastSession(["--json"], { HOME: tmp.path, GJC_USER_DIR: join(tmp.path, "odd") }, cwd)).toBeUndefined();
});
