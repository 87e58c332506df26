/** The compiled binary (no Bun or Node needed to run it) does the main job end to end. */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { compiledBinary } from "../helpers/binary.ts";
import { fixturesDir, runCli } from "../helpers/cli.ts";

let binary = "";
beforeAll(async () => {
  binary = await compiledBinary();
}, 120_000);

const run = (args: string[], env?: Record<string, string | undefined>) => runCli(args, { binary, env });

describe("compiled gjc", () => {
  test("--version and --help", async () => {
    const v = await run(["--version"]);
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toBe(`gjc ${pkg.version}\n`);
    const h = await run(["--help"]);
    expect(h.exitCode).toBe(0);
    expect(h.stdout).toContain("Usage: gjc <command>");
  });

  test("validates the runtime example (human and --json)", async () => {
    const dir = join(fixturesDir, "examples", "hello-runtime");
    const human = await run(["plugin", "validate", dir]);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toContain("✓ valid c2 bundle hello-runtime 1.0.0");
    expect(human.stdout).toContain("[runtime.requires_trust]");
    const json = await run(["plugin", "validate", dir, "--json"]);
    expect(json.exitCode).toBe(0);
    expect(json.json()).toMatchObject({
      schema: "gjc/validate@1",
      ok: true,
      family: "c2",
      name: "hello-runtime",
      contributions: { runtime: 1, runtimeCommands: 2, ui: 1 },
    });
  });

  test("validates the data-only example (human and --json)", async () => {
    const dir = join(fixturesDir, "examples", "notes-skills");
    const human = await run(["plugin", "validate", dir]);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toContain("✓ valid c2 bundle notes-skills 0.3.1");
    const json = await run(["plugin", "validate", dir, "--json"]);
    expect(json.json()).toMatchObject({
      ok: true,
      contributions: { skills: 2, subagents: 1, commands: 1 },
      diagnostics: [],
    });
  });

  test("validates the GJC example and lists its surfaces and files", async () => {
    const dir = join(fixturesDir, "examples", "review-kit");
    const json = await run(["plugin", "validate", dir, "--json"]);
    expect(json.exitCode).toBe(0);
    const doc = json.json();
    expect(doc).toMatchObject({
      schema: "gjc/validate@1",
      ok: true,
      family: "gjc",
      name: "review-kit",
      diagnostics: [],
    });
    expect(doc.surfaces.map((s: { id: string }) => s.id).sort()).toEqual([
      "agent-appendix:critic:review-kit:review-critic",
      "hook:tool_call:before:read:note-reads",
      "subskill:ralplan:planner:review",
      "system-appendix:review-kit:review-policy",
      "tool:review_checklist",
    ]);
    expect(doc.files[0].path).toBe("gajae-plugin.json");
  });

  test("an invalid fixture exits 1 with its diagnostics", async () => {
    const dir = join(fixturesDir, "c2", "unknown-field-runtime-commandTimeoutMs");
    const human = await run(["plugin", "validate", dir]);
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain("[unknown_field]");
    const json = await run(["plugin", "validate", dir, "--json"]);
    expect(json.exitCode).toBe(1);
    expect(json.json().diagnostics.map((d: any) => d.code)).toEqual(["unknown_field"]);
  });

  test("a catalog, and an unknown flag (exit 2)", async () => {
    const cat = await run([
      "marketplace",
      "validate",
      join(fixturesDir, "catalogs", "valid-local-and-remote"),
      "--json",
    ]);
    expect(cat.exitCode).toBe(0);
    expect(cat.json().family).toBe("catalog");
    const bad = await run(["plugin", "validate", ".", "--jsno"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('Did you mean "--json"?');
  });
});
