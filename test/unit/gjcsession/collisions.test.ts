import { expect, test } from "bun:test";
import { collisionKeys } from "../../../src/families/gjc/ids.ts";
import { resolveSessionCollisions, sessionKeys } from "../../../src/gjcsession/collisions.ts";
import type { RegistrySurface } from "../../../src/install/registry-types.ts";

const surfaces: RegistrySurface[] = [
  { extensionId: "tool:t", kind: "tool", name: "t" },
  { extensionId: "mcp:m", kind: "mcp", name: "m" },
  { extensionId: "hook:tool_call:before:read:h", kind: "hook", name: "h" },
  { extensionId: "hook:session_start:::h", kind: "hook", name: "h" },
  { extensionId: "system-appendix:p:a", kind: "system-appendix", name: "a" },
  { extensionId: "agent-appendix:executor:p:a", kind: "agent-appendix", name: "a" },
  { extensionId: "subskill:ralplan:planner:x", kind: "subskill", parent: "ralplan", phase: "planner", activation_arg: "x" },
];

test("session keys follow the shared collision rules exactly", () => {
  for (const s of surfaces) expect(sessionKeys(s)).toEqual(collisionKeys({ ...s, id: s.extensionId }).map((k) => k.key));
});

test("the earlier bundle wins; the later loses whole, one record per colliding surface, with the shared labels", () => {
  const a = { owner: "a (user)", surfaces: [surfaces[0], surfaces[6]] };
  const b = { owner: "a (project)", surfaces: [surfaces[0], { extensionId: "subskill:ralplan:critic:x", kind: "subskill", parent: "ralplan", phase: "critic", activation_arg: "x" }, surfaces[1]] };
  const c = { owner: "c (user)", surfaces: [surfaces[1]] };
  const losses = resolveSessionCollisions([a, b, c]);
  expect([...losses.keys()]).toEqual([1]);
  expect(losses.get(1)).toEqual([
    { surfaceId: "tool:t", heldBy: "a (user)", message: 'tool name "t" collides with a (user), which is already active; fail-closed (no shadowing).' },
    { surfaceId: "subskill:ralplan:critic:x", heldBy: "a (user)", message: 'ralplan activation_arg "x" collides with a (user), which is already active; fail-closed (no shadowing).' },
  ]);
});
