import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "../../../src/core/context.ts";
import { gjcProjectRoot, gjcUserRoot } from "../../../src/core/context.ts";
import { readRegistry, writeRegistry } from "../../../src/install/registry.ts";
import type { RegistryEntry, Scope } from "../../../src/install/registry-types.ts";
import { startSession } from "../../../src/gjcsession/session.ts";
import { sandbox, type Sandbox } from "../../helpers/sandbox.ts";
import { install, testContext, writeBundle, type BundleSpec } from "./_bundles.ts";

let tmp: Sandbox;
let ctx: Context;
let project: string;
beforeEach(() => {
  tmp = sandbox("gjc-session-");
  project = tmp.project;
  ctx = testContext(tmp);
});
afterEach(() => tmp.cleanup());

const six: BundleSpec = {
  name: "six",
  hook: { name: "audit", event: "tool_call", target: "read", phase: "before" },
  mcp: "docs",
  subskills: [
    { name: "design", parent: "ralplan", phase: "planner", arg: "design" },
    { name: "design-exec", parent: "executor", phase: "prompt", arg: "design" },
  ],
  systemAppendix: "Follow the domain policy.\n",
  agentAppendix: { agent: "executor", text: "Executor: cite the domain docs.\n" },
};

async function installed(spec: BundleSpec, scope: Scope = "user"): Promise<RegistryEntry> {
  await install(ctx, writeBundle(tmp.root, spec), scope);
  const root = scope === "user" ? gjcUserRoot(ctx) : gjcProjectRoot(project);
  return readRegistry(root, scope, ctx).plugins.find((p) => p.name === spec.name)!;
}

function editRegistry(scope: Scope, edit: (e: RegistryEntry[]) => void): void {
  const root = scope === "user" ? gjcUserRoot(ctx) : gjcProjectRoot(project);
  const reg = readRegistry(root, scope, ctx);
  edit(reg.plugins);
  writeRegistry(root, reg, ctx);
}

const registryText = (scope: Scope) =>
  readFileSync(join(scope === "user" ? gjcUserRoot(ctx) : gjcProjectRoot(project), "registry.json"), "utf8");

describe("session plan", () => {
  test("with nothing installed it is empty and touches nothing", async () => {
    const { plan, persistedQuarantine } = await startSession(ctx);
    expect(plan.bundles).toEqual([]);
    expect(plan.systemAppendix).toBe("");
    expect(plan.tools).toEqual([]);
    expect(plan.diagnostics).toEqual([]);
    expect(persistedQuarantine).toBe(0);
    expect(plan.scopes.map((s) => s.ok)).toEqual([true, true]);
  });

  test("a verified bundle contributes every surface, with modules under the installed root", async () => {
    const entry = await installed(six);
    const { plan } = await startSession(ctx);
    expect(plan.bundles).toMatchObject([{ name: "six", scope: "user", status: "active", root: entry.pluginRoot }]);
    expect(plan.tools).toEqual([
      {
        scope: "user",
        bundle: "six",
        surfaceId: "tool:six_note",
        name: "six_note",
        description: "Writes a six note",
        module: join(entry.pluginRoot, "tools/note.ts"),
      },
    ]);
    expect(plan.hooks).toMatchObject([
      {
        surfaceId: "hook:tool_call:before:read:audit",
        event: "tool_call",
        target: "read",
        phase: "before",
        module: join(entry.pluginRoot, "hooks/audit.ts"),
      },
    ]);
    expect(plan.mcpServers).toMatchObject([{ surfaceId: "mcp:docs", transport: "stdio", cwd: entry.pluginRoot }]);
    // Started through gjc, in the bundle's sandbox: the real command follows the "--".
    const args = (plan.mcpServers[0] as { args: string[] }).args;
    expect(args.slice(args.indexOf("sandbox"))).toEqual([
      "sandbox",
      "exec",
      "--bundle",
      entry.name,
      "--server",
      "docs",
      "--",
      "bun",
      "--no-env-file",
      "--no-install",
      "--config=/dev/null",
      "mcp/server.ts",
    ]);
    expect(plan.systemAppendix).toContain("Follow the domain policy.");
    expect(plan.systemAppendix).toStartWith('<gjc-plugin-system-appendix plugin="six" name="policy"');
    expect(plan.agentAppendices.executor).toContain("Executor: cite the domain docs.");
    expect(plan.agentAppendices.planner).toBe("");
    expect(plan.advertisements.skills.ralplan).toContain('activation_arg="design" phase="planner"');
    expect(plan.advertisements.agents.executor).toContain('name="design-exec"');
    expect(plan.advertisements.skills.ralplan).not.toContain("Body of");
    expect(plan.diagnostics).toEqual([]);
  });

  test("disabled bundles and surfaces are left out and never verified", async () => {
    await installed(six);
    await installed({ name: "other", tool: "other_tool", systemAppendix: "other text" });
    editRegistry("user", (ps) => {
      ps.find((p) => p.name === "six")!.disabledSurfaceIds = ["tool:six_note", "system-appendix:six:policy"];
      ps.find((p) => p.name === "other")!.enabled = false;
    });
    // Drift in a disabled bundle is not looked at (it cannot load anyway).
    writeFileSync(
      join(
        readRegistry(gjcUserRoot(ctx), "user", ctx).plugins.find((p) => p.name === "other")!.pluginRoot,
        "tools/note.ts",
      ),
      "changed",
    );
    const { plan } = await startSession(ctx);
    expect(plan.bundles.map((b) => [b.name, b.status])).toEqual([
      ["other", "disabled"],
      ["six", "active"],
    ]);
    expect(plan.tools).toEqual([]);
    expect(plan.systemAppendix).toBe("");
    expect(plan.hooks.length).toBe(1);
    expect(plan.bundles[1].surfaces.find((s) => s.id === "tool:six_note")?.status).toBe("disabled");
  });
});

describe("drift quarantines the bundle (runtime_mismatch, persisted, the file named)", () => {
  const cases: [string, (root: string) => void, string][] = [
    ["a changed file", (r) => writeFileSync(join(r, "tools/note.ts"), "export default 1;\n"), "tools/note.ts"],
    ["a missing file", (r) => rmSync(join(r, "prompts/system.md")), "prompts/system.md"],
    ["an extra file", (r) => writeFileSync(join(r, "tools/extra.ts"), "x"), "tools/extra.ts"],
    ["a mode change", (r) => chmodSync(join(r, "hooks/audit.ts"), 0o755), "hooks/audit.ts"],
    [
      "a symlink where a file was",
      (r) => {
        rmSync(join(r, "subskills/design/SKILL.md"));
        symlinkSync("/etc/hostname", join(r, "subskills/design/SKILL.md"));
      },
      "subskills/design/SKILL.md",
    ],
  ];
  for (const [what, damage, file] of cases) {
    test(what, async () => {
      const entry = await installed(six);
      damage(entry.pluginRoot);
      const first = await startSession(ctx);
      const b = first.plan.bundles[0];
      expect(b.status).toBe("quarantined");
      expect(b.reasons.length).toBeGreaterThan(0);
      expect(b.reasons.every((r) => r.code === "runtime_mismatch" && r.surfaceId === "plugin:six")).toBe(true);
      expect(b.reasons.map((r) => r.message).join("\n")).toContain(file);
      expect(first.plan.tools).toEqual([]);
      expect(first.plan.systemAppendix).toBe("");
      expect(first.plan.advertisements.skills.ralplan).toBe("");
      expect(
        first.plan.diagnostics.some(
          (d) => d.code === "runtime_mismatch" && d.bundle === "six" && d.message.includes(file),
        ),
      ).toBe(true);
      expect(first.persistedQuarantine).toBeGreaterThan(0);
      // Persisted in registry.json, so list/inspect show it and a second run keeps it.
      const stored = readRegistry(gjcUserRoot(ctx), "user", ctx).plugins[0].quarantine ?? [];
      expect(
        stored.some(
          (q) =>
            q.code === "runtime_mismatch" &&
            q.surfaceId === "plugin:six" &&
            q.message.includes(file) &&
            q.detectedAt === "2026-08-01T00:00:00.000Z",
        ),
      ).toBe(true);
      const second = await startSession(ctx);
      expect(second.plan.bundles[0].status).toBe("quarantined");
      expect(second.persistedQuarantine).toBe(0);
    });
  }

  test("one drifted bundle does not take down another", async () => {
    const entry = await installed(six);
    await installed({ name: "fine", tool: "fine_tool" });
    writeFileSync(join(entry.pluginRoot, "tools/note.ts"), "changed");
    const { plan } = await startSession(ctx);
    expect(plan.bundles.map((b) => [b.name, b.status])).toEqual([
      ["fine", "active"],
      ["six", "quarantined"],
    ]);
    expect(plan.tools.map((t) => t.name)).toEqual(["fine_tool"]);
  });
});

describe("session collisions", () => {
  test("the same bundle in both scopes: the user copy wins, the project copy is excluded (not quarantined, nothing persisted), naming the collision", async () => {
    await installed(six, "user");
    await installed(six, "project");
    const before = registryText("project");
    const { plan } = await startSession(ctx);
    expect(plan.bundles.map((b) => [b.scope, b.status])).toEqual([
      ["user", "active"],
      ["project", "excluded"],
    ]);
    expect(plan.bundles[1].collision?.with).toEqual(["six (user)"]);
    expect(plan.bundles[1].collision?.surfaceIds).toContain("tool:six_note");
    expect(plan.bundles[1].surfaces.every((s) => s.status === "excluded")).toBe(true);
    const reasons = plan.bundles[1].reasons;
    expect(reasons.every((r) => r.code === "session_collision" && !r.persisted)).toBe(true);
    expect(reasons.map((r) => r.surfaceId)).toContain("tool:six_note");
    expect(reasons.map((r) => r.surfaceId)).toContain("subskill:ralplan:planner:design");
    expect(reasons[0].message).toContain("six (user)");
    expect(plan.tools.length).toBe(1);
    expect(plan.tools[0].scope).toBe("user");
    expect(registryText("project")).toBe(before);
  });

  test("bundles with only sub-skills collide on their activation args too", async () => {
    const spec: BundleSpec = {
      name: "subs",
      tool: null,
      subskills: [{ name: "x", parent: "ultragoal", phase: "active", arg: "x" }],
    };
    await installed(spec, "user");
    await installed(spec, "project");
    const { plan } = await startSession(ctx);
    expect(plan.bundles.map((b) => b.status)).toEqual(["active", "excluded"]);
    expect(plan.subskills.length).toBe(1);
  });

  test("a disabled user copy leaves the project copy active", async () => {
    await installed(six, "user");
    await installed(six, "project");
    editRegistry("user", (ps) => {
      ps[0].enabled = false;
    });
    const { plan } = await startSession(ctx);
    expect(plan.bundles.map((b) => [b.scope, b.status])).toEqual([
      ["user", "disabled"],
      ["project", "active"],
    ]);
  });
});

describe("persisted and policy quarantine", () => {
  test("a persisted surface quarantine removes only that surface", async () => {
    await installed(six);
    editRegistry("user", (ps) => {
      ps[0].quarantine = [
        {
          surfaceId: "hook:tool_call:before:read:audit",
          code: "security_policy",
          message: "denied API",
          detectedAt: "2026-01-01T00:00:00.000Z",
        },
      ];
    });
    const { plan } = await startSession(ctx);
    expect(plan.bundles[0].status).toBe("active");
    expect(plan.hooks).toEqual([]);
    expect(plan.tools.length).toBe(1);
    expect(plan.diagnostics).toMatchObject([
      { code: "security_policy", surfaceId: "hook:tool_call:before:read:audit", bundle: "six" },
    ]);
  });

  test("a persisted whole-bundle quarantine keeps it out without re-hashing", async () => {
    await installed(six);
    editRegistry("user", (ps) => {
      ps[0].quarantine = [
        {
          surfaceId: "plugin:six",
          code: "runtime_mismatch",
          message: "Installed file changed: x",
          detectedAt: "2026-01-01T00:00:00.000Z",
        },
      ];
    });
    const { plan } = await startSession(ctx);
    expect(plan.bundles[0]).toMatchObject({
      status: "quarantined",
      reasons: [{ code: "runtime_mismatch", persisted: true }],
    });
  });

  test("an MCP launch edited into the registry is re-judged against the policy and quarantined", async () => {
    await installed(six);
    editRegistry("user", (ps) => {
      const m = ps[0].surfaces.mcps[0];
      m.command = "sh";
      m.args = ["-c", "id"];
    });
    const { plan } = await startSession(ctx);
    expect(plan.mcpServers).toEqual([]);
    expect(plan.diagnostics).toMatchObject([{ code: "security_policy", surfaceId: "mcp:docs" }]);
    expect(plan.bundles[0].surfaces.find((s) => s.id === "mcp:docs")?.status).toBe("quarantined");
  });

  test("a surface naming a file that was not installed (a hand-edited registry) fails the bundle closed", async () => {
    await installed(six);
    editRegistry("user", (ps) => {
      ps[0].surfaces.tools[0].path = "../../outside/evil.ts";
    });
    const { plan } = await startSession(ctx);
    expect(plan.bundles[0]).toMatchObject({
      status: "quarantined",
      reasons: [{ surfaceId: "tool:six_note", code: "runtime_mismatch", persisted: false }],
    });
    expect(plan.tools).toEqual([]);
    expect(plan.hooks).toEqual([]);
  });

  test("a corrupt registry fails its scope closed and leaves the other scope working", async () => {
    await installed(six, "user");
    await installed({ name: "proj", tool: "proj_tool" }, "project");
    writeFileSync(join(gjcProjectRoot(project), "registry.json"), "{ not json");
    const { plan } = await startSession(ctx);
    expect(plan.scopes.find((s) => s.scope === "project")?.ok).toBe(false);
    expect(plan.bundles.map((b) => b.name)).toEqual(["six"]);
    expect(plan.diagnostics).toMatchObject([{ code: "registry_corrupt", scope: "project", severity: "error" }]);
    expect(readFileSync(join(gjcProjectRoot(project), "registry.json"), "utf8")).toBe("{ not json");
  });
});

describe("--check-runtime", () => {
  test("a tool returning the wrong name is quarantined and persisted; the rest of the bundle stays", async () => {
    await installed({ ...six, toolSource: `export default () => ({ name: "renamed", execute() {} });\n` });
    const r = await startSession(ctx, { checkRuntime: true });
    expect(r.runtimeCheck).toMatchObject({ checked: 2, failed: 1 });
    expect(r.runtimeCheck?.results.find((x) => !x.ok)).toMatchObject({
      surfaceId: "tool:six_note",
      code: "runtime_mismatch",
    });
    expect(r.plan.tools).toEqual([]);
    expect(r.plan.hooks.length).toBe(1);
    expect(r.plan.bundles[0].status).toBe("active");
    const stored = readRegistry(gjcUserRoot(ctx), "user", ctx).plugins[0].quarantine ?? [];
    expect(stored).toMatchObject([{ surfaceId: "tool:six_note", code: "runtime_mismatch" }]);
    // The next plain session honours the persisted record without loading anything.
    const again = await startSession(ctx);
    expect(again.plan.tools).toEqual([]);
  });

  test("a hook calling a denied API is quarantined as security_policy", async () => {
    await installed({
      ...six,
      hookSource: `export default (api) => { api.registerCommand("x"); api.on("tool_call", () => {}); };\n`,
    });
    const r = await startSession(ctx, { checkRuntime: true });
    expect(r.runtimeCheck?.results.find((x) => !x.ok)).toMatchObject({
      surfaceId: "hook:tool_call:before:read:audit",
      code: "security_policy",
    });
    expect(r.plan.hooks).toEqual([]);
  });

  test("clean modules pass and nothing is written", async () => {
    await installed(six);
    const before = registryText("user");
    const r = await startSession(ctx, { checkRuntime: true });
    expect(r.runtimeCheck).toMatchObject({ checked: 2, failed: 0 });
    expect(registryText("user")).toBe(before);
  });
});

describe("persisting under a busy lock", () => {
  test("drift still quarantines for this session; the unwritten record becomes a warning", async () => {
    const { acquireLock } = await import("../../../src/store/lock.ts");
    const entry = await installed(six);
    writeFileSync(join(entry.pluginRoot, "tools/note.ts"), "changed");
    const before = registryText("user");
    const lock = await acquireLock(gjcUserRoot(ctx), { command: "test holder", file: "registry.lock" });
    try {
      const busy = testContext(tmp, { GJC_LOCK_TIMEOUT_MS: "50" });
      const { plan, persistedQuarantine } = await startSession(busy);
      expect(plan.bundles[0].status).toBe("quarantined");
      expect(plan.bundles[0].reasons.every((r) => !r.persisted)).toBe(true);
      expect(persistedQuarantine).toBe(0);
      expect(plan.diagnostics).toContainEqual(
        expect.objectContaining({ code: "quarantine_not_persisted", severity: "warning", scope: "user" }),
      );
    } finally {
      lock.release();
    }
    expect(registryText("user")).toBe(before);
  });
});
