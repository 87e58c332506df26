import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { snapshotTree, tempDirsPerTest } from "../helpers/tmp.ts";

const fresh = tempDirsPerTest();
const box = sandboxPerTest("gjc-e2e-init-");

/** Speaks to a scaffolded runtime the way a host would and returns the handshake and one call. */
async function handshake(cmd: string[], cwd: string) {
  const proc = Bun.spawn(cmd, { cwd, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  proc.stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "1.0.0" } })}\n`,
  );
  proc.stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "command/invoke", params: { name: "demo.greet", args: { name: "Ada" } } })}\n`,
  );
  proc.stdin.end();
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("gjc plugin init", () => {
  for (const runtime of ["node", "bun"] as const) {
    test(`c2 --runtime ${runtime}: validates as written and answers the handshake with exactly its manifest commands`, async () => {
      const root = fresh();
      const r = await runCli(["plugin", "init", "demo", "--family", "c2", "--runtime", runtime, "--json"], {
        cwd: root,
      });
      expect(r.exitCode).toBe(0);
      expect(r.json().files.map((f: { path: string }) => f.path)).toEqual([
        "plugin.json",
        "plugin.cjs",
        "gjc.test.json",
        "skills/demo/SKILL.md",
        "README.md",
      ]);
      const v = await runCli(["plugin", "validate", join(root, "demo"), "--json"]);
      expect(v.json().diagnostics.filter((d: { severity: string }) => d.severity === "error")).toEqual([]);
      expect(v.exitCode).toBe(0);
      const manifest = JSON.parse(await Bun.file(join(root, "demo", "plugin.json")).text());
      const [init, call] = await handshake(
        [runtime === "node" ? "node" : process.execPath, "plugin.cjs"],
        join(root, "demo"),
      );
      const declared = manifest.extensions["dev.codetwo"].commands;
      expect(init.result.commands.map((c: { name: string }) => c.name)).toEqual(
        declared.map((c: { id: string }) => c.id),
      );
      expect(init.result.commands[0].schema).toEqual(declared[0].argsSchema);
      expect(call.result).toEqual({ greeting: "Hello, Ada!" });
    });
  }

  test("c2 without a runtime and gjc both validate as written", async () => {
    const root = fresh();
    for (const family of ["c2", "gjc"]) {
      const r = await runCli(["plugin", "init", `b-${family}`, "--family", family], { cwd: root });
      expect(r.exitCode).toBe(0);
      const v = await runCli(["plugin", "validate", join(root, `b-${family}`), "--json"]);
      expect(v.exitCode).toBe(0);
      expect(v.json().family).toBe(family);
    }
  });

  test("refuses when any target path exists and writes nothing", async () => {
    const root = fresh();
    mkdirSync(join(root, "taken", "skills", "taken"), { recursive: true });
    writeFileSync(join(root, "taken", "skills", "taken", "SKILL.md"), "mine");
    const before = snapshotTree(root);
    const r = await runCli(["plugin", "init", "taken", "--family", "c2", "--runtime", "node", "--json"], { cwd: root });
    expect(r.exitCode).toBe(1);
    expect(r.json().error.code).toBe("scaffold_conflict");
    expect(r.json().error.details.conflicts).toEqual(["skills/taken/SKILL.md"]);
    expect(snapshotTree(root)).toEqual(before);
  });

  test("refuses a file where a directory is needed, without a partial scaffold", async () => {
    const root = fresh();
    mkdirSync(join(root, "b"));
    writeFileSync(join(root, "b", "tools"), "not a dir");
    const before = snapshotTree(root);
    const r = await runCli(["plugin", "init", "b", "--family", "gjc"], { cwd: root });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("scaffold_conflict");
    expect(snapshotTree(root)).toEqual(before);
  });

  test("usage errors: bad name, --runtime for gjc, missing or unknown family", async () => {
    const root = fresh();
    const bad = await runCli(["plugin", "init", "x", "--family", "c2", "--name", "Bad Name"], { cwd: root });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("invalid_name");
    const rt = await runCli(["plugin", "init", "x", "--family", "gjc", "--runtime", "node"], { cwd: root });
    expect(rt.exitCode).toBe(2);
    const fam = await runCli(["plugin", "init", "x", "--family", "npm"], { cwd: root });
    expect(fam.exitCode).toBe(2);
    expect(fam.stderr).toContain("invalid_option_value");
    const none = await runCli(["plugin", "init", "x"], { cwd: root });
    expect(none.exitCode).toBe(2);
    expect(snapshotTree(root)).toEqual({});
  });

  test("gjc defaults bind ralplan's architect phase, so a new bundle installs beside the shipped review-kit", async () => {
    const s = box();
    const root = s.root;
    const r = await s.gjc(["plugin", "init", "mine", "--family", "gjc", "--json"], { cwd: root });
    expect(r.json()).toMatchObject({
      subskill: { parent: "ralplan", phase: "architect", activationArg: "mine" },
      packageScript: "none",
    });
    expect(
      (
        await s.gjc(["plugin", "install", join(fixturesDir, "examples", "review-kit"), "--user", "--json"], {
          cwd: root,
        })
      ).exitCode,
    ).toBe(0);
    const mine = await s.gjc(["plugin", "install", join(root, "mine"), "--user", "--json"], { cwd: root });
    expect({ exit: mine.exitCode, stderr: mine.stderr }).toEqual({ exit: 0, stderr: "" });
  });

  test("--parent, --phase and --activation-arg choose the binding; a bad one is refused and nothing is written", async () => {
    const root = fresh();
    const r = await runCli(
      [
        "plugin",
        "init",
        "notes",
        "--family",
        "gjc",
        "--parent",
        "deep-interview",
        "--phase",
        "handoff",
        "--activation-arg",
        "take-notes",
        "--json",
      ],
      { cwd: root },
    );
    expect(r.exitCode).toBe(0);
    const skill = await Bun.file(join(root, "notes", "subskills", "notes", "SKILL.md")).text();
    expect(skill).toContain("binds_to: deep-interview\nphase: handoff\nactivation_arg: take-notes\n");
    expect((await runCli(["plugin", "validate", join(root, "notes")])).exitCode).toBe(0);
    // a parent without --phase takes its first phase (an agent's only phase is prompt)
    expect(
      (
        await runCli(["plugin", "init", "crit", "--family", "gjc", "--parent", "critic", "--json"], { cwd: root })
      ).json().subskill,
    ).toEqual({ parent: "critic", phase: "prompt", activationArg: "crit" });
    const before = snapshotTree(root);
    for (const bad of [
      ["--parent", "nobody"],
      ["--parent", "ralplan", "--phase", "prompt"],
      ["--activation-arg", "-x"],
      ["--family", "c2", "--phase", "planner"],
    ]) {
      const args = ["plugin", "init", "bad", "--family", "gjc", ...bad, "--json"];
      const refused = await runCli(args, { cwd: root });
      expect({ bad, exit: refused.exitCode, code: refused.json().error.code }).toEqual({
        bad,
        exit: 2,
        code: "invalid_option_value",
      });
    }
    expect(snapshotTree(root)).toEqual(before);
  });

  test("a package.json at the bundle root gets the plugin:validate script; an existing script is kept", async () => {
    const root = fresh();
    mkdirSync(join(root, "a"));
    writeFileSync(join(root, "a", "package.json"), '{\n    "name": "a",\n    "scripts": { "test": "true" }\n}\n');
    const a = await runCli(["plugin", "init", "a", "--family", "c2", "--json"], { cwd: root });
    expect(a.json().packageScript).toBe("added");
    expect(await Bun.file(join(root, "a", "package.json")).text()).toBe(
      '{\n    "name": "a",\n    "scripts": {\n        "test": "true",\n        "plugin:validate": "gjc plugin validate ."\n    }\n}\n',
    );
    mkdirSync(join(root, "b"));
    writeFileSync(join(root, "b", "package.json"), '{"name":"b","scripts":{"plugin:validate":"my own"}}');
    expect(
      (await runCli(["plugin", "init", "b", "--family", "gjc", "--json"], { cwd: root })).json().packageScript,
    ).toBe("kept");
    expect(await Bun.file(join(root, "b", "package.json")).text()).toBe(
      '{"name":"b","scripts":{"plugin:validate":"my own"}}',
    );
  });

  test("a package.json that a rewrite would change (a repeated key, a big number) is left byte for byte as it is", async () => {
    const root = fresh();
    const cases = {
      dup: '{\n  "name": "a",\n  "name": "b",\n  "scripts": {}\n}\n',
      big: '{\n  "name": "a",\n  "config": { "id": 12345678901234567890 },\n  "scripts": {}\n}\n',
      float: '{\n  "name": "a",\n  "version_num": 1.0\n}\n',
    };
    for (const [dir, text] of Object.entries(cases)) {
      mkdirSync(join(root, dir));
      writeFileSync(join(root, dir, "package.json"), text);
      const r = await runCli(["plugin", "init", dir, "--family", "c2", "--json"], { cwd: root });
      expect({ dir, exit: r.exitCode, outcome: r.json().packageScript }).toEqual({
        dir,
        exit: 0,
        outcome: "untouched",
      });
      expect(await Bun.file(join(root, dir, "package.json")).text()).toBe(text);
    }
    mkdirSync(join(root, "h2"));
    writeFileSync(join(root, "h2", "package.json"), cases.dup);
    expect((await runCli(["plugin", "init", "h2", "--family", "gjc"], { cwd: root })).stdout).toContain(
      "left as it is",
    );
  });
});
