/** Capability diffs from the compiled binary: audit --against, install --force --dry-run and upgrade --dry-run, both families. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { fixturesDir } from "../helpers/cli.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { makeWorld, type World } from "./gjc-install-fixture.ts";
import { writeRiskyC2 } from "./audit-fixture.ts";

let w: World;
let binary: string;
beforeAll(async () => {
  binary = await compiledBinary();
  w = makeWorld();
});
afterAll(() => w?.cleanup());
const run = (args: string[]) => w.gjc(args, { binary });

describe("compiled gjc: capability diffs", () => {
  test("C2: an added runtime argument is a change; a SKILL.md edit is an empty diff", async () => {
    const src = join(w.root, "risky-src");
    writeRiskyC2(src);
    expect((await run(["plugin", "install", src, "--user"])).exitCode).toBe(0);

    writeRiskyC2(src, { version: "1.1.0", args: ["runtime.js", "--listen", "0.0.0.0"] });
    const before = snapshotTree(w.root);
    const install = await run(["plugin", "install", src, "--force", "--dry-run", "--json"]);
    expect(install.exitCode).toBe(0);
    const d = install.json().capabilityDiff;
    expect(d.empty).toBe(false);
    expect(d.processes.changed).toMatchObject([
      {
        id: "c2-runtime:runtime",
        fields: ["args"],
        before: { args: ["runtime.js"] },
        after: { args: ["runtime.js", "--listen", "0.0.0.0"] },
      },
    ]);
    expect(d.processes.added).toEqual([]);
    const upgrade = await run(["plugin", "upgrade", "risky", "--dry-run", "--json"]);
    expect(upgrade.exitCode).toBe(0);
    expect(upgrade.json().capabilityDiff.processes.changed[0].fields).toEqual(["args"]);
    const human = await run(["plugin", "upgrade", "risky", "--dry-run"]);
    expect(human.stdout).toContain("capability diff: capabilities change");
    expect(human.stdout).toContain("~ process c2-runtime:runtime: node runtime.js --listen 0.0.0.0");
    const audit = await run(["plugin", "audit", src, "--against", "risky", "--json"]);
    expect(audit.json().capabilityDiff.processes.changed).toHaveLength(1);
    expect(snapshotTree(w.root)).toEqual(before);

    writeRiskyC2(src, {
      skill:
        "---\nname: use-risky\ndescription: Use it.\n---\nUse the risky tools, carefully, and read their output twice.\n",
    });
    const text = await run(["plugin", "install", src, "--force", "--dry-run", "--json"]);
    expect(text.json().status).toBe("would-update");
    const t = text.json().capabilityDiff;
    expect(t.empty).toBe(true);
    expect(t.prompts.changed).toEqual(["skill:use-risky"]);
    expect(t.prompts.delta).toBeGreaterThan(0);
    expect((await run(["plugin", "upgrade", "risky", "--dry-run"])).stdout).toContain(
      "capability diff: no capability changes",
    );
  });

  test("GJC: a sub-skill text edit is empty; an added hook and an MCP server are not", async () => {
    const src = join(w.root, "kit-src");
    cpSync(join(fixturesDir, "examples", "review-kit"), src, { recursive: true });
    expect((await run(["plugin", "install", src, "--user"])).exitCode).toBe(0);

    writeFileSync(
      join(src, "subskills", "review", "SKILL.md"),
      readFileSync(join(src, "subskills", "review", "SKILL.md"), "utf8") + "\nAlso check the tests.\n",
    );
    const text = await run(["plugin", "upgrade", "review-kit", "--user", "--dry-run", "--json"]);
    expect(text.exitCode).toBe(0);
    expect(text.json().capabilityDiff).toMatchObject({
      empty: true,
      prompts: { changed: ["subskill:ralplan/review"] },
    });

    const manifest = JSON.parse(readFileSync(join(src, "gajae-plugin.json"), "utf8"));
    manifest.hooks.push({
      name: "note-writes",
      event: "tool_call",
      target: "write",
      phase: "before",
      path: "hooks/note-reads.ts",
    });
    manifest.mcps = [{ name: "docs", transport: "http", url: "https://docs.example.com/mcp" }];
    writeFileSync(join(src, "gajae-plugin.json"), JSON.stringify(manifest, null, 2));
    const wide = await run(["plugin", "install", src, "--user", "--force", "--dry-run", "--json"]);
    expect(wide.exitCode).toBe(0);
    const d = wide.json().capabilityDiff;
    expect(d.empty).toBe(false);
    expect(d.hooks.added).toMatchObject([
      { id: "hook:note-writes", event: "tool_call", target: "write", phase: "before" },
    ]);
    expect(d.endpoints.added).toMatchObject([{ id: "mcp:docs", host: "docs.example.com" }]);
    const audit = await run(["plugin", "audit", src, "--against", "review-kit", "--user"]);
    expect(audit.stdout).toContain("+ endpoint mcp:docs: http https://docs.example.com/mcp (host docs.example.com)");
    expect(audit.stdout).toContain("+ hook hook:note-writes: tool_call write (before)");
  });
});
