/**
 * The C2 install/trust/policy path from the compiled binary: a git-hosted bundle through the
 * GitHub insteadOf mapping, a catalog entry, trust, plan in one process and apply in another,
 * and refusals with their code, exit status and an unchanged data directory.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { gitSandbox, makeRepo, mapGithubTo } from "../helpers/git.ts";
import { snapshotTree, writeTree } from "../helpers/tmp.ts";
import { runtimeBundle, skillsBundle } from "../unit/c2store/_bundles.ts";

const box = sandboxPerTest("gjc-c2bin-");

const errorCode = (r: { stderr: string }) =>
  JSON.parse(r.stderr.split("\n").find((l) => l.startsWith('{"error"'))!).error.code;

test("install from GitHub and a catalog, trust, plan/apply, refusals — compiled binary", async () => {
  const binary = await compiledBinary();
  const s = box();
  // git's config lives in the sandbox's HOME (gitSandbox writes <root>/home/gitconfig)
  const sb = gitSandbox(s.root);
  mapGithubTo(sb, join(s.root, "gh"));
  const data = s.c2;
  const run = (...args: string[]) => s.gjc(args, { binary, env: sb.env, cwd: s.root });

  const spec = runtimeBundle("hello-runtime") as Record<string, unknown>;
  makeRepo(
    sb,
    join(s.root, "gh", "IchenDEV", "codeTwo.git"),
    Object.fromEntries(Object.entries(spec).map(([k, v]) => [`packs/hello-runtime/${k}`, v])) as never,
  );
  const gh = await run(
    "plugin",
    "install",
    "https://github.com/IchenDEV/codeTwo/tree/main/packs/hello-runtime",
    "--json",
  );
  expect(gh.exitCode).toBe(0);
  expect(gh.json()).toMatchObject({
    family: "c2",
    source: { kind: "github" },
    c2: { id: "hello-runtime-83dfd86f", trusted: false },
  });
  expect(gh.stderr).toContain("runtime.requires_trust");

  writeTree(join(s.root, "cat", "notes"), skillsBundle("notes"));
  mkdirSync(join(s.root, "cat"), { recursive: true });
  writeFileSync(
    join(s.root, "cat", "marketplace.json"),
    JSON.stringify({
      standardVersion: "1.0.0",
      name: "team",
      plugins: [{ name: "notes", version: "1.0.0", source: { kind: "local", path: "./notes" } }],
    }),
  );
  expect((await run("plugin", "install", "notes@./cat", "--json")).json()).toMatchObject({
    name: "notes",
    status: "installed",
  });

  const before = snapshotTree(data);
  for (const [args, code, exit] of [
    [["plugin", "install", "https://github.com/IchenDEV/codeTwo/tree/main/../secret"], undefined, 2],
    [
      ["plugin", "install", "https://github.com/IchenDEV/codeTwo/tree/main/packs/hello-runtime", "--project"],
      "c2_project_scope",
      2,
    ],
    [["plugin", "policy", "plan", "notes", "--state", "disabled"], "no_runtime", 3],
    [["plugin", "policy", "apply", "0123456789abcdef0123456789abcdef"], "plan_not_found", 3],
  ] as const) {
    const r = await run(...args, "--json");
    expect(r.exitCode).toBe(exit);
    if (code) expect(errorCode(r)).toBe(code);
  }
  expect(snapshotTree(data)).toEqual(before);

  expect((await run("plugin", "trust", "hello-runtime")).exitCode).toBe(0);
  const plan = (
    await run("plugin", "policy", "plan", "hello-runtime", "--state", "disabled", "--project", ".", "--json")
  ).json();
  expect(plan.scope.kind).toBe("project");
  const applied = await run("plugin", "policy", "apply", plan.token, "--json");
  expect(applied.exitCode).toBe(0);
  const cat = (await run("plugin", "policy", "catalog", "--project", s.root, "--json")).json();
  expect(cat.plugins.find((p: { name: string }) => p.name === "hello-runtime")).toMatchObject({
    state: "disabled",
    effective: { source: "project" },
  });
  expect((await run("plugin", "policy", "apply", plan.token)).exitCode).toBe(3);
});
