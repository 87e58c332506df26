import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, rmSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { snapshotTree } from "../helpers/tmp.ts";
import { sessionWorld, sixSurfaces, type SessionWorld } from "./gjc-session-world.ts";

let w: SessionWorld;
beforeEach(() => {
  w = sessionWorld();
});
afterEach(() => w.cleanup());

const contentDir = (scope: "user" | "project", name: string) =>
  w.registry(scope).plugins.find((p: { name: string }) => p.name === name).pluginRoot as string;

describe("gjc plugin session", () => {
  test("prints the plan as one JSON document", async () => {
    await w.install(sixSurfaces, "user");
    await w.install({ name: "proj", tool: "proj_tool", systemAppendix: "project policy" }, "project");
    const r = await w.gjc(["plugin", "session", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    // The runtime check runs by default the first time content is seen.
    expect(doc).toMatchObject({
      schema: "gjc/session@1",
      ok: true,
      runtimeCheck: { failed: 0 },
      persistedQuarantine: 0,
    });
    expect(doc.bundles.map((b: any) => [b.scope, b.name, b.status])).toEqual([
      ["user", "six", "active"],
      ["project", "proj", "active"],
    ]);
    expect(doc.tools.map((t: any) => t.name)).toEqual(["six_note", "proj_tool"]);
    expect(doc.tools[0].module).toBe(join(contentDir("user", "six"), "tools/note.ts"));
    expect(doc.systemAppendix).toContain("Follow the &lt;domain&gt; policy.");
    expect(doc.systemAppendix.indexOf('plugin="six"')).toBeLessThan(doc.systemAppendix.indexOf('plugin="proj"'));
    expect(doc.agentAppendices.executor).toContain("Executor appendix.");
    expect(doc.advertisements.skills.ralplan).toContain('activation_arg="design"');
    expect(doc.mcpServers[0]).toMatchObject({
      name: "docs",
      transport: "stdio",
      cwd: contentDir("user", "six"),
      bunFlags: [],
    });
    // Started through gjc, in the bundle's sandbox: the real command (with bun's isolating flags) follows the "--".
    const args: string[] = doc.mcpServers[0].args;
    expect(args.slice(args.indexOf("sandbox"))).toEqual([
      "sandbox",
      "exec",
      "--bundle",
      "six",
      "--server",
      "docs",
      "--",
      "bun",
      "--no-env-file",
      "--no-install",
      "--config=/dev/null",
      "mcp/server.ts",
    ]);
    expect(r.stderr).toBe("");
  });

  test("human output summarizes the plan and its findings", async () => {
    await w.install(sixSurfaces);
    writeFileSync(join(contentDir("user", "six"), "prompts/system.md"), "edited");
    const r = await w.gjc(["plugin", "session"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("quarantined six@1.0.0 (user)");
    expect(r.stdout).toContain("[runtime_mismatch]");
    expect(r.stdout).toContain("prompts/system.md");
  });

  test("drift found at session start is persisted and shown by list", async () => {
    await w.install(sixSurfaces);
    writeFileSync(join(contentDir("user", "six"), "tools/note.ts"), "export default 1;");
    const r = await w.gjc(["plugin", "session", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json().bundles[0].status).toBe("quarantined");
    expect(r.json().persistedQuarantine).toBeGreaterThan(0);
    expect(w.registry("user").plugins[0].quarantine[0]).toMatchObject({
      surfaceId: "plugin:six",
      code: "runtime_mismatch",
    });
    const list = await w.gjc(["plugin", "list", "--json"]);
    expect(JSON.stringify(list.json())).toContain("runtime_mismatch");
  });

  test("--check-runtime quarantines a mismatching tool (exit 3) and a later session leaves it out", async () => {
    await w.install({ ...sixSurfaces, toolSource: `export default () => ({ name: "not_declared", execute() {} });\n` });
    const r = await w.gjc(["plugin", "session", "--check-runtime", "--json"]);
    expect(r.exitCode).toBe(3);
    const doc = r.json();
    expect(doc.ok).toBe(false);
    expect(doc.runtimeCheck).toMatchObject({ checked: 2, failed: 1 });
    expect(doc.tools).toEqual([]);
    expect(doc.hooks.length).toBe(1);
    const next = await w.gjc(["plugin", "session", "--json"]);
    expect(next.exitCode).toBe(0);
    expect(next.json().tools).toEqual([]);
    expect(next.json().diagnostics).toContainEqual(
      expect.objectContaining({ surfaceId: "tool:six_note", code: "runtime_mismatch" }),
    );
  });

  test("a clean file verify does not lift a quarantine that a runtime check recorded", async () => {
    await w.install({ ...sixSurfaces, toolSource: `export default () => ({ name: "not_declared", execute() {} });\n` });
    expect((await w.gjc(["plugin", "session", "--check-runtime", "--json"])).exitCode).toBe(3);
    const verify = await w.gjc(["plugin", "verify", "--json"]);
    expect(verify.exitCode).toBe(0);
    expect(w.registry("user").plugins[0].quarantine).toContainEqual(
      expect.objectContaining({ surfaceId: "tool:six_note", code: "runtime_mismatch" }),
    );
    expect((await w.gjc(["plugin", "session", "--json"])).json().tools).toEqual([]);
  });

  test("the runtime-check child never sees a secret of the host", async () => {
    const seen = join(w.root, "seen.json");
    await w.install({
      ...sixSurfaces,
      toolSource: `require("node:fs").writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ secret: process.env.GJC_E2E_SECRET ?? null, home: process.env.HOME ?? null }));\nexport default () => ({ name: "six_note", execute() {} });\n`,
    });
    // The module reports what it saw in a file outside its sandbox: it runs unconfined here.
    const r = await w.gjc(["plugin", "session", "--check-runtime", "--json"], {
      env: { GJC_E2E_SECRET: "hunter2-secret", GJC_SANDBOX: "off" },
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(seen, "utf8"))).toEqual({ secret: null, home: w.env.HOME });
    expect(r.stdout).not.toContain("hunter2-secret");
  });

  test("a corrupt project registry fails that scope closed (exit 3) and is left as it is", async () => {
    await w.install(sixSurfaces, "user");
    await w.install({ name: "proj", tool: "proj_tool" }, "project");
    const path = join(w.project, ".gjc/gjc-plugins/registry.json");
    writeFileSync(path, '{"version":1,"scope":"project","plugins":[{"name":"../x"}]}');
    const before = snapshotTree(w.project);
    const r = await w.gjc(["plugin", "session", "--json"]);
    expect(r.exitCode).toBe(3);
    const doc = r.json();
    expect(doc.scopes.find((s: any) => s.scope === "project").ok).toBe(false);
    expect(doc.bundles.map((b: any) => b.name)).toEqual(["six"]);
    expect(doc.diagnostics[0]).toMatchObject({ code: "registry_corrupt", scope: "project" });
    expect(snapshotTree(w.project)).toEqual(before);
  });

  test("--project selects another project directory", async () => {
    await w.install({ name: "proj", tool: "proj_tool" }, "project");
    const elsewhere = join(w.root, "home");
    const r = await w.gjc(["plugin", "session", "--project", w.project, "--json"]);
    expect(r.json().tools.map((t: any) => t.name)).toEqual(["proj_tool"]);
    const none = await w.gjc(["plugin", "session", "--project", elsewhere, "--json"]);
    expect(none.json().tools).toEqual([]);
  });

  test("usage errors exit 2 and write nothing", async () => {
    const before = snapshotTree(w.root);
    for (const args of [
      ["plugin", "session", "--timeout", "soon"],
      ["plugin", "session", "--bogus"],
      ["plugin", "activate"],
    ]) {
      const r = await w.gjc([...args, "--json"]);
      expect(r.exitCode).toBe(2);
      expect(JSON.parse(r.stderr.trim().split("\n").pop() as string).error.code).toBeString();
    }
    expect(snapshotTree(w.root)).toEqual(before);
  });
});

describe("gjc plugin verify --runtime", () => {
  test("a hook calling a denied API is quarantined as security_policy (exit 3); clean modules pass", async () => {
    await w.install({
      ...sixSurfaces,
      hookSource: `export default (api) => { api.sendMessage("hi"); api.on("tool_call", () => {}); };\n`,
    });
    await w.install({ name: "clean", tool: "clean_tool", hook: { name: "h", event: "session_start" } });
    const r = await w.gjc(["plugin", "verify", "--runtime", "--json"]);
    expect(r.exitCode).toBe(3);
    const doc = r.json();
    expect(doc.runtime.failed).toBe(1);
    expect(doc.runtime.results.find((x: any) => !x.ok)).toMatchObject({
      bundle: "six",
      surfaceId: "hook:tool_call:before:read:audit",
      code: "security_policy",
    });
    expect(
      doc.runtime.results
        .filter((x: any) => x.ok)
        .map((x: any) => x.surfaceId)
        .sort(),
    ).toEqual(["hook:session_start:::h", "tool:clean_tool", "tool:six_note"]);
    const q = w.registry("user").plugins.find((p: any) => p.name === "six").quarantine;
    expect(q).toContainEqual(
      expect.objectContaining({ surfaceId: "hook:tool_call:before:read:audit", code: "security_policy" }),
    );
  });

  test("plugin code runs only in the isolated check, once per content; --no-check-runtime runs none", async () => {
    const sentinel = join(w.root, "ran");
    // The module marks that it ran in a file outside its sandbox: it runs unconfined here.
    const unconfined = { env: { GJC_SANDBOX: "off" } };
    await w.install({
      ...sixSurfaces,
      toolSource: `require("node:fs").writeFileSync(${JSON.stringify(sentinel)}, "x");\nexport default () => ({ name: "six_note", execute() {} });\n`,
    });
    expect((await w.gjc(["plugin", "verify", "--json"], unconfined)).exitCode).toBe(0);
    expect(existsSync(sentinel)).toBe(false);
    expect((await w.gjc(["plugin", "session", "--no-check-runtime", "--json"], unconfined)).exitCode).toBe(0);
    expect(existsSync(sentinel)).toBe(false);
    // First session start: the module is loaded once, in the isolated child.
    const first = await w.gjc(["plugin", "session", "--json"], unconfined);
    expect(first.exitCode).toBe(0);
    expect(existsSync(sentinel)).toBe(true);
    rmSync(sentinel);
    // Later session starts reuse the verdict for the same content: no child, same document.
    const second = await w.gjc(["plugin", "session", "--json"], unconfined);
    expect(second.exitCode).toBe(0);
    expect(existsSync(sentinel)).toBe(false);
    expect(second.json().runtimeCheck).toEqual(first.json().runtimeCheck);
    expect((await w.gjc(["plugin", "session"], unconfined)).stdout).toContain(
      "by earlier verdicts for the same content",
    );
    // --check-runtime forces a fresh check.
    expect((await w.gjc(["plugin", "session", "--check-runtime", "--json"], unconfined)).exitCode).toBe(0);
    expect(existsSync(sentinel)).toBe(true);
  });
});

describe("gjc plugin activate", () => {
  test("consumes the flag and prints the blocks; options of the skill pass through", async () => {
    await w.install(sixSurfaces);
    const r = await w.gjc(["plugin", "activate", "ralplan", "--design", "the", "--verbose", "cache", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc).toMatchObject({
      schema: "gjc/activate@1",
      ok: true,
      skill: "ralplan",
      consumed: "--design",
      cleanedArgs: "the --verbose cache",
      phase: "planner",
    });
    expect(doc.pack.map((p: any) => p.surfaceId)).toEqual([
      "subskill:ralplan:planner:design",
      "subskill:executor:prompt:design",
    ]);
    expect(doc.inject).toContain(
      '<gjc-subskill plugin="six" name="design" parent="ralplan" phase="planner" arg="design">\nDesign body for the planner.\n</gjc-subskill>',
    );
    const human = await w.gjc(["plugin", "activate", "ralplan", "--design"]);
    expect(human.stdout).toContain("activated six/design for ralplan (--design)");
    expect(human.stdout).toContain("Design body for the planner.");
  });

  test("a drifted bundle is refused with exit 3 and nothing but the quarantine record changes", async () => {
    await w.install(sixSurfaces);
    writeFileSync(join(contentDir("user", "six"), "subskills/design/SKILL.md"), "tampered");
    const r = await w.gjc(["plugin", "activate", "ralplan", "--design", "--json"]);
    expect(r.exitCode).toBe(3);
    expect(JSON.parse(r.stderr.trim()).error.code).toBe("quarantined");
    expect(w.registry("user").plugins[0].quarantine.length).toBeGreaterThan(0);
    const again = await w.gjc(["plugin", "activate", "ralplan", "--design", "--json"]);
    expect(again.exitCode).toBe(3);
  });

  test("a disabled surface is refused (exit 1) with a hint to enable it", async () => {
    await w.install(sixSurfaces);
    const d = await w.gjc(["plugin", "disable", "six", "--user", "--surface", "subskill:ralplan:planner:design"]);
    expect(d.exitCode).toBe(0);
    const before = snapshotTree(w.root);
    const r = await w.gjc(["plugin", "activate", "ralplan", "--design"]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("[surface_disabled]");
    expect(r.stderr).toContain("gjc plugin enable six --user --surface subskill:ralplan:planner:design");
    expect(snapshotTree(w.root)).toEqual(before);
  });
});
