import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { tempDirsPerTest } from "../helpers/tmp.ts";
import { sdkServerBuild } from "../unit/mcp/fixture-servers.ts";

const fresh = tempDirsPerTest();
async function scaffold(root: string, name: string, family: "c2" | "gjc", runtime?: string) {
  const r = await runCli(["plugin", "init", name, "--family", family, ...(runtime ? ["--runtime", runtime] : [])], {
    cwd: root,
  });
  expect(r.exitCode).toBe(0);
  return join(root, name);
}
const rules = (r: { checks: { rule: string; ok: boolean; skipped?: boolean; code?: string }[] }) =>
  r.checks.map((c) => `${c.rule}:${c.skipped ? "skip" : c.ok ? "ok" : `fail(${c.code})`}`);

/** Every process whose command line mentions the bundle dir (the runtime would be one). */
function processesUnder(dir: string): string[] {
  const ps = Bun.spawnSync(["ps", "-eo", "pid,args"]);
  return ps.stdout
    .toString()
    .split("\n")
    .filter((l) => l.includes(dir) && !l.includes("ps -eo"));
}

describe("gjc plugin test (C2)", () => {
  for (const runtime of ["node", "bun"]) {
    test(`a ${runtime} scaffold passes: handshake, the sample call and its expected result`, async () => {
      const dir = await scaffold(fresh(), "demo", "c2", runtime);
      const r = await runCli(["plugin", "test", dir, "--json"]);
      expect(r.exitCode).toBe(0);
      const report = r.json();
      expect(report.schema).toBe("gjc/test@1");
      expect(rules(report)).toEqual(["manifest:ok", "handshake:ok", "invoke demo.greet:ok"]);
      expect(report.checks[1].latencyMs).toBeGreaterThan(0);
    });
  }

  test("--args replaces gjc.test.json; a wrong expectation or unknown command fails with exit 1", async () => {
    const dir = await scaffold(fresh(), "demo", "c2", "node");
    const ok = await runCli(["plugin", "test", dir, "--args", '{"demo.greet": {"name": "Ada"}}', "--json"]);
    expect(ok.exitCode).toBe(0);
    expect(ok.json().checks[2].message).toContain("Hello, Ada!");
    const unknown = await runCli(["plugin", "test", dir, "--args", '{"demo.nope": {}}', "--json"]);
    expect(unknown.exitCode).toBe(1);
    expect(rules(unknown.json())).toContain("sample-args:fail(unknown_command)");
    writeFileSync(
      join(dir, "gjc.test.json"),
      JSON.stringify({ commands: { "demo.greet": { args: { name: "x" }, expect: { greeting: "nope" } } } }),
    );
    const wrong = await runCli(["plugin", "test", dir, "--json"]);
    expect(wrong.exitCode).toBe(1);
    expect(rules(wrong.json())).toEqual(["manifest:ok", "handshake:ok", "invoke demo.greet:fail(unexpected_result)"]);
  });

  test("a sample call that is never answered fails with invoke_timeout under the default per-call timeout, and nothing is left running", async () => {
    const root = fresh();
    const { writeRuntimeBundle } = await import("../unit/c2host/_bundle.ts");
    const dir = writeRuntimeBundle(join(root, "hang"), { name: "hang", commands: [{ id: "hang.sleep" }] }).dir;
    // No --timeout: the default bounds the call (the command sleeps for ten minutes).
    const r = await runCli(["plugin", "test", dir, "--args", '{"hang.sleep": {"ms": 600000}}', "--json"]);
    expect(r.exitCode).toBe(1);
    expect(rules(r.json())).toEqual(["manifest:ok", "handshake:ok", "invoke hang.sleep:fail(invoke_timeout)"]);
    expect(processesUnder(dir)).toEqual([]);
  });

  test("schema drift in the runtime fails the handshake rule with a hint, and no process is left", async () => {
    const dir = await scaffold(fresh(), "drift", "c2", "node");
    const src = readFileSync(join(dir, "plugin.cjs"), "utf8").replace(
      "schema: c.argsSchema ?? null",
      'schema: { type: "array" }',
    );
    writeFileSync(join(dir, "plugin.cjs"), src);
    const r = await runCli(["plugin", "test", dir]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("handshake_mismatch");
    expect(r.stdout).toContain("hint");
    expect(processesUnder(dir)).toEqual([]);
  });

  test("a bundle that does not validate fails the manifest rule without starting anything", async () => {
    const dir = await scaffold(fresh(), "broken", "c2", "node");
    const manifest = JSON.parse(readFileSync(join(dir, "plugin.json"), "utf8"));
    manifest.extensions["dev.codetwo"].runtime.commandTimeoutMs = 5;
    writeFileSync(join(dir, "plugin.json"), JSON.stringify(manifest));
    writeFileSync(
      join(dir, "plugin.cjs"),
      `require("node:fs").writeFileSync(${JSON.stringify(join(dir, "..", "ran"))}, "x");`,
    );
    const r = await runCli(["plugin", "test", dir, "--json"]);
    expect(r.exitCode).toBe(1);
    expect(rules(r.json())).toEqual(["manifest:fail(unknown_field)"]);
    expect(await Bun.file(join(dir, "..", "ran")).exists()).toBe(false);
  });

  test("usage errors: bad --args JSON and a bad --timeout", async () => {
    const dir = await scaffold(fresh(), "demo", "c2", "node");
    expect((await runCli(["plugin", "test", dir, "--args", "{nope"])).exitCode).toBe(2);
    expect((await runCli(["plugin", "test", dir, "--timeout", "-1"])).exitCode).toBe(2);
  });
});

describe("gjc plugin test (GJC)", () => {
  test("the scaffold passes: its tool loads in an isolated child as declared", async () => {
    const dir = await scaffold(fresh(), "gb", "gjc");
    const r = await runCli(["plugin", "test", dir, "--json"]);
    expect(r.exitCode).toBe(0);
    expect(rules(r.json())).toEqual(["manifest:ok", "load tool:gb_hello:ok"]);
  });

  test("a tool with another name and a hook that calls a denied API fail with their codes", async () => {
    const dir = await scaffold(fresh(), "gb", "gjc");
    writeFileSync(join(dir, "tools/hello.ts"), `export default () => ({ name: "other", execute() {} });\n`);
    mkdirSync(join(dir, "hooks"));
    writeFileSync(join(dir, "hooks/audit.ts"), `export default (api) => { api.registerCommand("x", {}); };\n`);
    const manifest = JSON.parse(readFileSync(join(dir, "gajae-plugin.json"), "utf8"));
    manifest.hooks = [{ name: "audit", event: "tool_call", target: "read", phase: "before", path: "hooks/audit.ts" }];
    writeFileSync(join(dir, "gajae-plugin.json"), JSON.stringify(manifest));
    const r = await runCli(["plugin", "test", dir, "--json"]);
    expect(r.exitCode).toBe(1);
    expect(rules(r.json()).sort()).toEqual([
      "load hook:tool_call:before:read:audit:fail(security_policy)",
      "load tool:gb_hello:fail(runtime_mismatch)",
      "manifest:ok",
    ]);
  });

  test("stdio MCP servers are probed (a real SDK server passes, a silent one fails)", async () => {
    const root = fresh();
    const dir = await scaffold(root, "gm", "gjc");
    const server = await sdkServerBuild(join(root, "build"));
    mkdirSync(join(dir, "mcp"));
    writeFileSync(join(dir, "mcp/server.mjs"), await Bun.file(server).bytes());
    writeFileSync(join(dir, "mcp/silent.mjs"), "process.stdin.resume();\n");
    const manifest = JSON.parse(readFileSync(join(dir, "gajae-plugin.json"), "utf8"));
    manifest.mcps = [
      { name: "docs", transport: "stdio", command: "bun", args: ["mcp/server.mjs"] },
      { name: "silent", transport: "stdio", command: "node", args: ["mcp/silent.mjs"] },
    ];
    writeFileSync(join(dir, "gajae-plugin.json"), JSON.stringify(manifest));
    const r = await runCli(["plugin", "test", dir, "--timeout", "3000", "--json"]);
    expect(r.exitCode).toBe(1);
    const checks = r.json().checks as { rule: string; ok: boolean; message: string }[];
    expect(checks.find((c) => c.rule === "mcp docs")!.ok).toBe(true);
    expect(checks.find((c) => c.rule === "mcp silent")!.ok).toBe(false);
    expect(processesUnder(dir)).toEqual([]);
  });
});
