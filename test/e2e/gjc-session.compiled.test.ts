import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { sessionWorld, sixSurfaces, type SessionWorld } from "./gjc-session-world.ts";

let w: SessionWorld;
let seen: string;
beforeAll(async () => {
  w = sessionWorld(await compiledBinary());
  seen = join(w.root, "seen.json");
  await w.install({
    ...sixSurfaces,
    toolSource: `require("node:fs").writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ secret: process.env.GJC_E2E_SECRET ?? null, bun: typeof Bun }));\nexport default () => ({ name: "six_note", execute() {} });\n`,
  });
  await w.install({
    name: "bad-hook",
    tool: null,
    hook: { name: "h", event: "session_start" },
    hookSource: `export default (api) => { api.on("session_shutdown", () => {}); };\n`,
  });
}, 120_000);
afterAll(() => w.cleanup());

// The compiled gjc runs the runtime-check harness with itself as the bun runtime (BUN_BE_BUN=1).
test("the compiled binary checks modules in isolated children and quarantines a mismatch", async () => {
  // The tool reports what it saw in a file outside its sandbox: unconfined here (the sandbox from
  // the compiled binary is tested in sandbox.compiled.test.ts).
  const r = await w.gjc(["plugin", "session", "--check-runtime", "--json"], {
    env: { GJC_E2E_SECRET: "compiled-secret-42", GJC_SANDBOX: "off" },
  });
  expect(r.exitCode).toBe(3);
  const doc = r.json();
  expect(doc.runtimeCheck.results.map((x: any) => [x.surfaceId, x.ok, x.code ?? null])).toEqual([
    ["hook:session_start:::h", false, "runtime_mismatch"],
    ["tool:six_note", true, null],
    ["hook:tool_call:before:read:audit", true, null],
  ]);
  expect(JSON.parse(readFileSync(seen, "utf8"))).toEqual({ secret: null, bun: "object" });
  expect(doc.hooks.map((h: any) => h.surfaceId)).toEqual(["hook:tool_call:before:read:audit"]);
});

test("the compiled binary renders the session plan and activates a sub-skill", async () => {
  const s = await w.gjc(["plugin", "session", "--json"]);
  expect(s.exitCode).toBe(0);
  expect(s.json().advertisements.skills.ralplan).toContain('name="design"');
  const a = await w.gjc(["plugin", "activate", "ralplan", "--design", "x", "--json"]);
  expect(a.exitCode).toBe(0);
  expect(a.json().inject).toContain("Design body for the planner.");
});

test("the compiled binary refuses drift at session start", async () => {
  const root = w.registry("user").plugins.find((p: any) => p.name === "six").pluginRoot;
  writeFileSync(join(root, "prompts/agent.md"), "changed");
  const s = await w.gjc(["plugin", "session", "--json"]);
  expect(s.json().bundles.find((b: any) => b.name === "six").status).toBe("quarantined");
});

test("the compiled binary answers an empty session (the fast start) with the full document", async () => {
  const empty = sessionWorld(await compiledBinary());
  try {
    const r = await empty.gjc(["plugin", "session", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json()).toMatchObject({
      schema: "gjc/session@1",
      ok: true,
      projectDir: empty.project,
      bundles: [],
      tools: [],
      runtimeCheck: null,
      persistedQuarantine: 0,
    });
    expect(r.json().scopes).toEqual([
      { scope: "user", root: empty.user, ok: true },
      { scope: "project", root: `${empty.project}/.gjc/gjc-plugins`, ok: true },
    ]);
  } finally {
    empty.cleanup();
  }
});
