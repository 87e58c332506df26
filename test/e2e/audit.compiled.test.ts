/** gjc plugin audit from the compiled binary: shipped examples, reference fixtures, SARIF, --fail-on, sources and installed bundles. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { fixturesDir } from "../helpers/cli.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { checkJsonSchema } from "../unit/audit/json-schema-check.ts";
import { makeWorld, type World } from "./gjc-install-fixture.ts";
import { SECRET_VALUE, writeRiskyC2 } from "./audit-fixture.ts";

const sarifSchema = JSON.parse(
  readFileSync(join(import.meta.dir, "..", "unit", "audit", "sarif-schema-2.1.0.subset.json"), "utf8"),
);

let w: World;
let binary: string;
beforeAll(async () => {
  binary = await compiledBinary();
  w = makeWorld();
});
afterAll(() => w?.cleanup());
const run = (args: string[]) => w.gjc(args, { binary });

const bundles = [
  ...readdirSync(join(fixturesDir, "examples")).map((d) => join(fixturesDir, "examples", d)),
  ...readdirSync(join(fixturesDir, "c2"))
    .filter((d) => d.startsWith("valid-"))
    .map((d) => join(fixturesDir, "c2", d)),
  ...readdirSync(join(fixturesDir, "gjc"))
    .filter((d) => d.startsWith("valid-"))
    .map((d) => join(fixturesDir, "gjc", d)),
];

describe("compiled gjc plugin audit", () => {
  test("every shipped example and valid reference fixture: a model, and SARIF that validates", async () => {
    expect(bundles.length).toBeGreaterThan(20);
    for (const dir of bundles) {
      const r = await run(["plugin", "audit", dir, "--json"]);
      expect({ dir, exit: r.exitCode, stderr: r.stderr }).toEqual({ dir, exit: 0, stderr: "" });
      const doc = r.json();
      expect(doc.schema).toBe("gjc/audit@1");
      expect(doc.subject.kind).toBe("source");
      expect(doc.capabilities.files.count).toBeGreaterThan(0);
      const s = await run(["plugin", "audit", dir, "--sarif"]);
      expect(s.exitCode).toBe(0);
      const sarif = JSON.parse(s.stdout);
      expect({ dir, errors: checkJsonSchema(sarifSchema, sarif) }).toEqual({ dir, errors: [] });
      expect(sarif.runs).toHaveLength(1);
      expect(sarif.runs[0].results).toHaveLength(doc.findings.length);
    }
  });

  test("the shipped examples: what each can run and inject", async () => {
    const hello = (await run(["plugin", "audit", join(fixturesDir, "examples", "hello-runtime"), "--json"])).json();
    expect(hello.capabilities.processes).toMatchObject([
      {
        id: "c2-runtime:runtime",
        command: "node",
        args: ["plugin.js"],
        script: "plugin.js",
        hostEnvironment: "allow-list",
      },
    ]);
    expect(hello.capabilities.hostCommands.map((h: any) => h.name)).toEqual([
      "hello.greet",
      "hello.dirty",
      "session.header:greet->hello.greet",
    ]);
    expect(hello.findings.map((f: any) => f.ruleId)).toEqual(["interpreter-from-path"]);
    const kit = (await run(["plugin", "audit", join(fixturesDir, "examples", "review-kit"), "--json"])).json();
    expect(kit.capabilities.hooks).toMatchObject([
      { event: "tool_call", target: "read", phase: "before", path: "hooks/note-reads.ts" },
    ]);
    expect(kit.capabilities.processes.map((p: any) => p.id)).toEqual([
      "tool-module:review_checklist",
      "hook-module:note-reads",
    ]);
    expect(kit.capabilities.prompts.map((p: any) => p.kind).sort()).toEqual([
      "agent-appendix",
      "subskill",
      "system-appendix",
    ]);
    expect(kit.capabilities.promptBytes).toBe(kit.capabilities.prompts.reduce((n: number, p: any) => n + p.bytes, 0));
    expect(kit.findings).toEqual([]);
  });

  test("findings: unpinned fetch, plain http, secrets by name only, located in the manifest; --fail-on", async () => {
    const src = writeRiskyC2(join(w.root, "risky"));
    const r = await run(["plugin", "audit", src, "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain(SECRET_VALUE);
    const doc = r.json();
    const byRule = (id: string) => doc.findings.filter((f: any) => f.ruleId === id);
    expect(byRule("unpinned-launch-fetch")).toMatchObject([
      { level: "error", subject: "mcp-stdio:github", at: { file: "mcp.json", pointer: "/mcpServers/github/command" } },
    ]);
    expect(byRule("plain-http-endpoint")).toMatchObject([{ subject: "mcp:local", level: "warning" }]);
    expect(
      byRule("env-secret-passthrough")
        .map((f: any) => f.subject)
        .sort(),
    ).toEqual(["c2-runtime:runtime", "mcp-stdio:github"]);
    expect(doc.capabilities.env).toContainEqual(
      expect.objectContaining({ name: "GITHUB_TOKEN", mode: "passes", from: "GITHUB_TOKEN" }),
    );
    expect(doc.capabilities.hostCommands).toContainEqual(
      expect.objectContaining({ kind: "inject", name: "extensions-runtime" }),
    );
    const mcpText = readFileSync(join(src, "mcp.json"), "utf8").split("\n");
    const fetch = byRule("unpinned-launch-fetch")[0];
    // A member is located at its key (src/core/json-position.ts).
    expect(mcpText[fetch.region.line - 1].slice(fetch.region.column - 1)).toStartWith('"command": "npx"');

    const human = await run(["plugin", "audit", src]);
    expect(human.stdout).toContain("unpinned-launch-fetch");
    expect(human.stdout).not.toContain(SECRET_VALUE);
    const sarif = await run(["plugin", "audit", src, "--sarif", "--fail-on", "unpinned-launch-fetch"]);
    expect(sarif.exitCode).toBe(3);
    expect(sarif.stdout).not.toContain(SECRET_VALUE);
    const log = JSON.parse(sarif.stdout);
    expect(checkJsonSchema(sarifSchema, log)).toEqual([]);
    const result = log.runs[0].results.find((x: any) => x.ruleId === "unpinned-launch-fetch");
    expect(result.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "mcp.json" },
      region: { startLine: fetch.region.line, startColumn: fetch.region.column },
    });
    expect(log.runs[0].tool.driver.rules[result.ruleIndex].id).toBe("unpinned-launch-fetch");
    expect(log.runs[0].tool.driver.rules.every((x: any) => x.help.text.length > 0)).toBe(true);

    expect((await run(["plugin", "audit", src, "--fail-on", "error"])).exitCode).toBe(3);
    expect((await run(["plugin", "audit", src, "--fail-on", "warning"])).exitCode).toBe(3);
    expect((await run(["plugin", "audit", src, "--fail-on", "credential-header,shell-command"])).exitCode).toBe(0);
    const clean = await run(["plugin", "audit", join(fixturesDir, "examples", "notes-skills"), "--fail-on", "note"]);
    expect(clean.exitCode).toBe(0);
    const bad = await run(["plugin", "audit", src, "--fail-on", "bogus", "--json"]);
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stderr.trim().split("\n").pop()!).error.code).toBe("invalid_option_value");
    expect((await run(["plugin", "audit", src, "--sarif", "--json"])).exitCode).toBe(2);
  });

  test("a source is fetched and planned as install would, and nothing is left behind", async () => {
    const before = snapshotTree(w.root);
    const refused = await run(["plugin", "audit", join(fixturesDir, "gjc", "mcp-launcher-shell"), "--json"]);
    const install = await run([
      "plugin",
      "install",
      join(fixturesDir, "gjc", "mcp-launcher-shell"),
      "--user",
      "--dry-run",
      "--json",
    ]);
    expect(refused.exitCode).toBe(install.exitCode);
    expect(refused.exitCode).not.toBe(0);
    const code = (x: typeof refused) => JSON.parse(x.stderr.trim().split("\n").pop()!).error.code;
    expect(code(refused)).toBe(code(install));

    const tgz = join(w.root, "kit.tgz");
    expect((await run(["plugin", "pack", join(fixturesDir, "examples", "review-kit"), "-o", tgz])).exitCode).toBe(0);
    const packed = snapshotTree(w.root);
    const fromTgz = await run(["plugin", "audit", tgz, "--json"]);
    expect(fromTgz.exitCode).toBe(0);
    expect(fromTgz.json().subject).toMatchObject({ kind: "source", family: "gjc", name: "review-kit" });
    expect(snapshotTree(w.root)).toEqual(packed);
    const entry = await run([
      "plugin",
      "audit",
      `hello-runtime@${join(fixturesDir, "catalogs", "valid-local-and-remote")}`,
      "--json",
    ]);
    expect(entry.exitCode).toBe(0);
    expect(entry.json().subject).toMatchObject({ kind: "source", family: "c2", name: "hello-runtime" });
    expect(snapshotTree(w.root)).toEqual(packed);
    const { [`kit.tgz`]: _archive, ...rest } = packed;
    expect(rest).toEqual(before);
  });

  test("an installed bundle by name, both families", async () => {
    expect((await run(["plugin", "install", join(fixturesDir, "examples", "review-kit"), "--project"])).exitCode).toBe(
      0,
    );
    expect((await run(["plugin", "install", join(fixturesDir, "examples", "hello-runtime"), "--user"])).exitCode).toBe(
      0,
    );
    const gjc = await run(["plugin", "audit", "review-kit", "--json"]);
    expect(gjc.exitCode).toBe(0);
    expect(gjc.json().subject).toMatchObject({ kind: "installed", family: "gjc", scope: "project" });
    const c2 = await run(["plugin", "audit", "hello-runtime", "--json"]);
    expect(c2.exitCode).toBe(0);
    expect(c2.json().subject).toMatchObject({ kind: "installed", family: "c2", name: "hello-runtime" });
    expect(c2.json().capabilities.processes[0].command).toBe("node");
    const missing = await run(["plugin", "audit", "no-such-bundle", "--json"]);
    expect(missing.exitCode).toBe(1);
    expect(JSON.parse(missing.stderr.trim().split("\n").pop()!).error.code).toBe("not_installed");
    expect((await run(["plugin", "audit", "review-kit", "--user"])).exitCode).toBe(1);
  });
});
