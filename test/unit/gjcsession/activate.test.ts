import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "../../../src/core/context.ts";
import { gjcUserRoot } from "../../../src/core/context.ts";
import { isGjcError } from "../../../src/core/errors.ts";
import { activateSkill } from "../../../src/gjcsession/activate.ts";
import { readRegistry, writeRegistry } from "../../../src/install/registry.ts";
import type { RegistryEntry, Scope } from "../../../src/install/registry-types.ts";
import { sandbox, type Sandbox } from "../../helpers/sandbox.ts";
import { install, testContext, writeBundle, type BundleSpec } from "./_bundles.ts";

let tmp: Sandbox;
let ctx: Context;
beforeEach(() => {
  tmp = sandbox("gjc-activate-");
  ctx = testContext(tmp);
});
afterEach(() => tmp.cleanup());

const pack: BundleSpec = {
  name: "pack",
  tool: null,
  subskills: [
    {
      name: "design",
      parent: "ralplan",
      phase: "planner",
      arg: "design",
      body: "Plan the design carefully.\n</gjc-subskill> stays inside",
    },
    { name: "design-exec", parent: "executor", phase: "prompt", arg: "design", body: "Execute the design." },
    { name: "review", parent: "ralplan", phase: "critic", arg: "review", body: "Review body." },
  ],
};

async function installed(spec: BundleSpec, scope: Scope = "user"): Promise<RegistryEntry> {
  await install(ctx, writeBundle(tmp.root, spec), scope);
  return readRegistry(gjcUserRoot(ctx), "user", ctx).plugins.find((p) => p.name === spec.name)!;
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isGjcError(e)) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("Tier-2 activation", () => {
  test("consumes the first sub-skill flag and returns the same-plugin pack with the block to inject", async () => {
    await installed(pack);
    const r = await activateSkill(ctx, { skill: "ralplan", args: ["--design", "the storage", "layer"] });
    expect(r.consumed).toBe("--design");
    expect(r.args).toEqual(["the", "storage", "layer"]);
    expect(r.cleanedArgs).toBe("the storage layer");
    expect(r.activation).toMatchObject({
      plugin: "pack",
      name: "design",
      parent: "ralplan",
      phase: "planner",
      activationArg: "design",
      surfaceId: "subskill:ralplan:planner:design",
    });
    expect(r.pack.map((p) => p.surfaceId)).toEqual([
      "subskill:ralplan:planner:design",
      "subskill:executor:prompt:design",
    ]);
    expect(r.phase).toBe("planner");
    expect(r.inject).toStartWith(
      '\n\n---\n\n<gjc-subskill plugin="pack" name="design" parent="ralplan" phase="planner" arg="design">\nPlan the design carefully.',
    );
    expect(r.inject.split("</gjc-subskill>").length).toBe(2);
    expect(r.inject).not.toContain("binds_to");
    expect(r.pack[1].block).toContain("Execute the design.");
  });

  test("only the first matching flag is consumed; `--x=y` and other parents' args are not", async () => {
    await installed(pack);
    const r = await activateSkill(ctx, { skill: "ralplan", args: ["--design=x --review --design"] });
    expect(r.consumed).toBe("--review");
    expect(r.args).toEqual(["--design=x", "--design"]);
    const agentArg = await activateSkill(ctx, { skill: "ultragoal", args: ["--design"] });
    expect(agentArg.consumed).toBeNull();
    expect(agentArg.cleanedArgs).toBe("--design");
  });

  test("a phase other than the sub-skill's injects nothing now but still returns the pack", async () => {
    await installed(pack);
    const r = await activateSkill(ctx, { skill: "ralplan", args: ["--review"] });
    expect(r.activation?.phase).toBe("critic");
    expect(r.inject).toBe("");
    const atCritic = await activateSkill(ctx, { skill: "ralplan", args: ["--review"], phase: "critic" });
    expect(atCritic.inject).toContain("Review body.");
  });

  test("an unknown phase is a usage error", async () => {
    await installed(pack);
    const e = await refusal(activateSkill(ctx, { skill: "ralplan", args: ["--design"], phase: "nope" }));
    expect(e.code).toBe("invalid_phase");
    expect(e.exit).toBe(2);
  });

  test("nothing installed or no flag: nothing is consumed", async () => {
    expect(await activateSkill(ctx, { skill: "ralplan", args: ["--design", "x"] })).toMatchObject({
      consumed: null,
      activation: null,
      pack: [],
      inject: "",
      cleanedArgs: "--design x",
    });
    await installed(pack);
    expect(await activateSkill(ctx, { skill: "ralplan", args: ["plain", "words"] })).toMatchObject({
      consumed: null,
      cleanedArgs: "plain words",
    });
  });

  test("a disabled surface or bundle refuses the flag instead of passing it on", async () => {
    await installed(pack);
    const edit = (f: (e: RegistryEntry) => void) => {
      const reg = readRegistry(gjcUserRoot(ctx), "user", ctx);
      f(reg.plugins[0]);
      writeRegistry(gjcUserRoot(ctx), reg, ctx);
    };
    edit((e) => (e.disabledSurfaceIds = ["subskill:ralplan:planner:design"]));
    const surface = await refusal(activateSkill(ctx, { skill: "ralplan", args: ["--design"] }));
    expect(surface.code).toBe("surface_disabled");
    expect(surface.exit).toBe(1);
    expect(surface.hint).toContain("--surface subskill:ralplan:planner:design");
    // The rest of the pack is still available through its own flag.
    expect((await activateSkill(ctx, { skill: "ralplan", args: ["--review"] })).consumed).toBe("--review");
    edit((e) => {
      e.disabledSurfaceIds = [];
      e.enabled = false;
    });
    expect((await refusal(activateSkill(ctx, { skill: "ralplan", args: ["--review"] }))).code).toBe("surface_disabled");
  });

  test("a drifted bundle never activates (exit 3), and the drift is persisted", async () => {
    const entry = await installed(pack);
    writeFileSync(join(entry.pluginRoot, "subskills/design/SKILL.md"), "---\nname: design\n---\ntampered");
    const e = await refusal(activateSkill(ctx, { skill: "ralplan", args: ["--design"] }));
    expect(e.code).toBe("quarantined");
    expect(e.exit).toBe(3);
    expect(e.message).toContain("subskills/design/SKILL.md");
    expect(readRegistry(gjcUserRoot(ctx), "user", ctx).plugins[0].quarantine?.[0]).toMatchObject({
      surfaceId: "plugin:pack",
      code: "runtime_mismatch",
    });
  });

  test("a quarantined surface never activates", async () => {
    await installed(pack);
    const reg = readRegistry(gjcUserRoot(ctx), "user", ctx);
    reg.plugins[0].quarantine = [
      {
        surfaceId: "subskill:ralplan:planner:design",
        code: "runtime_mismatch",
        message: "bad",
        detectedAt: "2026-01-01T00:00:00.000Z",
      },
    ];
    writeRegistry(gjcUserRoot(ctx), reg, ctx);
    const e = await refusal(activateSkill(ctx, { skill: "ralplan", args: ["--design"] }));
    expect(e.code).toBe("quarantined");
  });

  test("with the same bundle in both scopes the active (user) copy activates", async () => {
    await installed(pack, "user");
    await installed(pack, "project");
    const r = await activateSkill(ctx, { skill: "ralplan", args: ["--design"] });
    expect(r.activation?.scope).toBe("user");
    expect(r.pack.every((p) => p.scope === "user")).toBe(true);
  });
});
