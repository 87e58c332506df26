import { expect, test } from "bun:test";
import { resolveSessionCollisions } from "../../../src/gjcsession/collisions.ts";
import type { RegistrySurface } from "../../../src/install/registry-types.ts";

const surfaces: RegistrySurface[] = [
  { extensionId: "tool:t", kind: "tool", name: "t" },
  { extensionId: "mcp:m", kind: "mcp", name: "m" },
  { extensionId: "hook:tool_call:before:read:h", kind: "hook", name: "h" },
  { extensionId: "hook:session_start:::h", kind: "hook", name: "h" },
  { extensionId: "system-appendix:p:a", kind: "system-appendix", name: "a" },
  { extensionId: "agent-appendix:executor:p:a", kind: "agent-appendix", name: "a" },
  {
    extensionId: "subskill:ralplan:planner:x",
    kind: "subskill",
    parent: "ralplan",
    phase: "planner",
    activation_arg: "x",
  },
];

test("every kind of surface collides by the shared rule: the same name, id or sub-skill slot in a later bundle loses", () => {
  // Each surface above, offered again by a later bundle (with another extension id where the
  // rule is by name or slot, so only the rule can make it collide).
  const again: RegistrySurface[] = surfaces.map((s) =>
    s.kind === "hook" || s.kind.endsWith("appendix") ? s : { ...s, extensionId: `${s.extensionId}-again` },
  );
  const losses = resolveSessionCollisions([
    { owner: "first (user)", surfaces },
    ...again.map((s, i) => ({ owner: `later${i} (user)`, surfaces: [s] })),
  ]);
  expect([...losses.keys()]).toEqual(again.map((_, i) => i + 1));
  for (const [i, s] of again.entries())
    expect(losses.get(i + 1)).toEqual([expect.objectContaining({ surfaceId: s.extensionId, heldBy: "first (user)" })]);
});

test("the earlier bundle wins; the later loses whole, one record per colliding surface, with the shared labels", () => {
  const a = { owner: "a (user)", surfaces: [surfaces[0], surfaces[6]] };
  const b = {
    owner: "a (project)",
    surfaces: [
      surfaces[0],
      {
        extensionId: "subskill:ralplan:critic:x",
        kind: "subskill",
        parent: "ralplan",
        phase: "critic",
        activation_arg: "x",
      },
      surfaces[1],
    ],
  };
  const c = { owner: "c (user)", surfaces: [surfaces[1]] };
  const losses = resolveSessionCollisions([a, b, c]);
  expect([...losses.keys()]).toEqual([1]);
  expect(losses.get(1)).toEqual([
    {
      surfaceId: "tool:t",
      heldBy: "a (user)",
      message: 'tool name "t" collides with a (user), which is already active; fail-closed (no shadowing).',
    },
    {
      surfaceId: "subskill:ralplan:critic:x",
      heldBy: "a (user)",
      message:
        'ralplan activation_arg "x" collides with a (user), which is already active; fail-closed (no shadowing).',
    },
  ]);
});

test("tool names collide across bundles whatever their case, as host tool names do", () => {
  const losses = resolveSessionCollisions([
    { owner: "a (user)", surfaces: [{ extensionId: "tool:Domain_Note", kind: "tool", name: "Domain_Note" }] },
    { owner: "b (user)", surfaces: [{ extensionId: "tool:domain_note", kind: "tool", name: "domain_note" }] },
  ]);
  expect(losses.get(1)).toEqual([expect.objectContaining({ surfaceId: "tool:domain_note", heldBy: "a (user)" })]);
});
