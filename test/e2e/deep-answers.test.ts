/**
 * Issue #12, class 11 beyond manifests: JSON nested too deep to print, from the command line
 * or from a runtime's answer, is a clear refusal, never exit 70.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { c2HomesPerTest, installBundle } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();

describe("deeply nested answers and arguments", () => {
  test("--args nested 60,000 deep is a usage error before any runtime starts", async () => {
    const h = home();
    const b = writeRuntimeBundle(join(h.root, "src"), {
      name: "echoer",
      commands: [{ id: "demo.echo", argsSchema: { type: "object" } }],
    });
    await installBundle(h, b.dir);
    // 60,000 levels: enough to overflow JSON.stringify, small enough for one argv string (128 KiB).
    const deep = `{"a":${"[".repeat(60_000)}${"]".repeat(60_000)}}`;
    const r = await runCli(["plugin", "run", "demo.echo", "--args", deep, "--json"], { env: h.env, cwd: h.root });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe("invalid_option_value");
  });

  test("a runtime answering with a result nested 200,000 deep: runtime_protocol_error (exit 1), human and --json", async () => {
    const h = home();
    // A runtime whose echo wraps the answer in 200,000 arrays (well inside the 1 MiB frame).
    const b = writeRuntimeBundle(join(h.root, "src"), {
      name: "deep-one",
      commands: [{ id: "deep.echo", argsSchema: { type: "object" } }],
    });
    const script = join(b.dir, "runtime.mjs");
    const { readFileSync } = await import("node:fs");
    const source = readFileSync(script, "utf8");
    const deepSend =
      'const send = (m) => process.stdout.write(m.result === "DEEP" ? `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":${"[".repeat(200000)}${"]".repeat(200000)}}` + String.fromCharCode(10) : JSON.stringify({ jsonrpc: "2.0", ...m }) + String.fromCharCode(10));';
    const patched = source
      .replace('case "echo":\n      return { args };', 'case "echo":\n      return "DEEP";')
      .split("\n")
      .map((line) => (line.startsWith("const send = ") ? deepSend : line))
      .join("\n");
    expect(patched).toContain('return "DEEP"');
    expect(patched).toContain("repeat(200000)");
    writeFileSync(script, patched);
    await installBundle(h, b.dir);
    for (const json of [[], ["--json"]]) {
      const r = await runCli(["plugin", "run", "deep.echo", ...json], { env: h.env, cwd: h.root });
      expect(r.exitCode).toBe(1);
      expect(r.stdout + r.stderr).toContain("runtime_protocol_error");
    }
  });
});
