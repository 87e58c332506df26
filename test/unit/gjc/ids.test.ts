import { describe, expect, test } from "bun:test";
import { DiagnosticSink } from "../../../src/core/diagnostics.ts";
import { reportDuplicates } from "../../../src/families/gjc/collisions.ts";
import {
  agentAppendixId,
  collisionKeys,
  hookId,
  mcpId,
  pluginId,
  subskillId,
  systemAppendixId,
  toolId,
} from "../../../src/families/gjc/ids.ts";
import type { GjcSurface } from "../../../src/families/gjc/compile.ts";

describe("extension ids", () => {
  test("formats from the seed", () => {
    expect(toolId("note")).toBe("tool:note");
    expect(hookId("tool_call", "before", "read", "audit")).toBe("hook:tool_call:before:read:audit");
    expect(hookId("session_start", undefined, null, "audit")).toBe("hook:session_start:::audit");
    expect(mcpId("docs")).toBe("mcp:docs");
    expect(systemAppendixId("bundle", "policy")).toBe("system-appendix:bundle:policy");
    expect(agentAppendixId("executor", "bundle", "x")).toBe("agent-appendix:executor:bundle:x");
    expect(subskillId("ralplan", "architect", "design")).toBe("subskill:ralplan:architect:design");
    expect(pluginId("bundle")).toBe("plugin:bundle");
  });
});

describe("collisionKeys", () => {
  const s = (kind: string, extra: Record<string, unknown>): GjcSurface => ({
    id: `${kind}:x`,
    kind: kind as GjcSurface["kind"],
    enabledByDefault: true,
    ...extra,
  });
  test("tools and MCPs collide by name, hooks and appendices by id, sub-skills by (parent, arg) and (parent, phase)", () => {
    expect(collisionKeys(s("tool", { name: "a" }))).toEqual([
      { code: "duplicate_tool", key: "tool:a", label: 'tool name "a"' },
    ]);
    expect(collisionKeys(s("mcp", { name: "a" })).map((k) => [k.code, k.key])).toEqual([["duplicate_mcp", "mcp:a"]]);
    expect(collisionKeys({ id: "hook:e:::n", kind: "hook" }).map((k) => [k.code, k.key])).toEqual([
      ["duplicate_hook", "hook:e:::n"],
    ]);
    expect(collisionKeys({ id: "system-appendix:p:n", kind: "system-appendix" })[0].code).toBe("duplicate_appendix");
    expect(collisionKeys({ id: "agent-appendix:a:p:n", kind: "agent-appendix" })[0].code).toBe("duplicate_appendix");
    expect(
      collisionKeys(s("subskill", { parent: "ralplan", phase: "critic", activation_arg: "x" })).map((k) => [
        k.code,
        k.key,
      ]),
    ).toEqual([
      ["duplicate_arg", "arg:ralplan:x"],
      ["duplicate_parent_phase", "phase:ralplan:critic"],
    ]);
    expect(collisionKeys({ id: "other", kind: "other" })).toEqual([]);
  });

  test("the same activation arg under different parents does not collide", () => {
    const a = collisionKeys(s("subskill", { parent: "ralplan", phase: "critic", activation_arg: "x" }));
    const b = collisionKeys(s("subskill", { parent: "executor", phase: "prompt", activation_arg: "x" }));
    expect(a.some((k) => b.some((j) => j.key === k.key))).toBe(false);
  });

  test("reportDuplicates names the later declaration and where the first one is", () => {
    const sink = new DiagnosticSink();
    const one = s("tool", { name: "a" });
    const two = s("tool", { name: "a" });
    const three = s("tool", { name: "b" });
    reportDuplicates(
      sink,
      [one, two, three],
      new Map([
        [one, "#/tools/0"],
        [two, "#/tools/1"],
        [three, "#/tools/2"],
      ]),
    );
    expect(sink.items).toHaveLength(1);
    expect(sink.items[0]).toMatchObject({ code: "duplicate_tool", path: "#/tools/1" });
    expect(sink.items[0].message).toContain("#/tools/0");
  });
});
