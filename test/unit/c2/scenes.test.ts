/**
 * Scenes and pipelines against the Agent Scenes 1.0.0 schemas: conforming files are stored and
 * shown unsupported (never counted as supported contributions), non-conforming ones are skipped
 * with the schema's reasons, and a scene beside a supported skill leaves the skill the only
 * supported contribution.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { supportedContributions } from "../../../src/families/c2/contributions.ts";
import { SCENE_SCHEMA_IDS, sceneProblems } from "../../../src/families/c2/scenes.ts";
import { planC2Bundle } from "../../../src/families/c2/validate.ts";
import { tempDirsPerTest, writeTree } from "../../helpers/tmp.ts";

const SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const scene = (extra: object = {}) => ({ $schema: SCENE_SCHEMA_IDS.scene, name: "review", title: "Review", ...extra });
const pipeline = (extra: object = {}) => ({
  $schema: SCENE_SCHEMA_IDS.pipeline,
  name: "ship",
  title: "Ship",
  stages: [{ id: "one", scene: "review" }],
  ...extra,
});
const fresh = tempDirsPerTest();

describe("Agent Scenes 1.0.0 schemas", () => {
  test("the shipped schemas are the 1.0.0 documents", () => {
    for (const kind of ["scene", "pipeline"] as const) {
      const doc = JSON.parse(
        readFileSync(
          join(import.meta.dir, "../../../src/families/c2/agent-scenes", `${kind}-1.0.0.schema.json`),
          "utf8",
        ),
      );
      expect(doc.$id).toBe(SCENE_SCHEMA_IDS[kind]);
      expect(doc.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    }
  });

  test("scene rules: required fields, closed objects, slug grammar, if/then conditions", () => {
    expect(sceneProblems("scene", scene())).toEqual([]);
    expect(
      sceneProblems(
        "scene",
        scene({ brief: { template: "t", slots: [{ id: "a", label: "A", kind: "select", options: ["x"] }] } }),
      ),
    ).toEqual([]);
    expect(sceneProblems("scene", { $schema: SCENE_SCHEMA_IDS.scene, name: "review" }).join()).toContain("title");
    expect(sceneProblems("scene", scene({ name: "a--b" })).join()).toContain("/name");
    expect(sceneProblems("scene", scene({ name: "Review" })).join()).toContain("/name");
    expect(sceneProblems("scene", scene({ shell: "rm -rf" })).join()).toContain("shell");
    expect(sceneProblems("scene", scene({ $schema: SCENE_SCHEMA_IDS.pipeline })).join()).toContain("/$schema");
    // `select` slots need options; `schedule` hooks need a schedule; notify needs a message.
    expect(
      sceneProblems("scene", scene({ brief: { template: "t", slots: [{ id: "a", label: "A", kind: "select" }] } })),
    ).not.toEqual([]);
    expect(
      sceneProblems("scene", scene({ hooks: [{ on: "schedule", action: { kind: "notify", message: "m" } }] })),
    ).not.toEqual([]);
    expect(sceneProblems("scene", scene({ hooks: [{ on: "enter", action: { kind: "notify" } }] }))).not.toEqual([]);
    expect(
      sceneProblems("scene", scene({ hooks: [{ on: "enter", action: { kind: "notify", message: "hi" } }] })),
    ).toEqual([]);
    expect(sceneProblems("scene", scene({ execution: { session_mode: "root" } }))).not.toEqual([]);
  });

  test("pipeline rules: stages required and non-empty, closed stages, transitions", () => {
    expect(sceneProblems("pipeline", pipeline())).toEqual([]);
    expect(sceneProblems("pipeline", pipeline({ stages: [] }))).not.toEqual([]);
    expect(sceneProblems("pipeline", pipeline({ stages: [{ id: "one" }] })).join()).toContain("scene");
    expect(
      sceneProblems("pipeline", pipeline({ transitions: [{ from: "one", to: "one", when: "always" }] })),
    ).not.toEqual([]);
    expect(
      sceneProblems(
        "pipeline",
        pipeline({ transitions: [{ from: "one", to: "one", when: "tests_failed", gate: "auto" }] }),
      ),
    ).toEqual([]);
    // A scene document is not a pipeline.
    expect(sceneProblems("pipeline", scene())).not.toEqual([]);
  });

  test("in a bundle: conforming files are stored-but-unsupported, never supported contributions", () => {
    const dir = writeTree(join(fresh(), "b"), {
      "plugin.json": {
        $schema: SCHEMA,
        name: "office",
        version: "1.0.0",
        extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
      },
      "skills/notes/SKILL.md": "---\nname: notes\ndescription: Notes.\n---\nTake notes.\n",
      "scenes/review.scene.json": JSON.stringify(scene()),
      "scenes/ship.pipeline.json": JSON.stringify(pipeline()),
      "scenes/bad.scene.json": JSON.stringify(scene({ title: "" })),
      "scenes/bad.pipeline.json": JSON.stringify({ $schema: SCENE_SCHEMA_IDS.pipeline, name: "x", title: "X" }),
    });
    const plan = planC2Bundle(dir);
    expect(plan.ok).toBe(true);
    expect(plan.contributions.counts).toMatchObject({ skills: 1, scenes: 1, pipelines: 1 });
    expect(supportedContributions(plan.contributions.counts)).toBe(1);
    expect(plan.contributions.components.filter((c) => c.kind === "scene" || c.kind === "pipeline")).toEqual([
      { kind: "scene", name: "scenes/review.scene.json", path: "scenes/review.scene.json", status: "unsupported" },
      { kind: "pipeline", name: "scenes/ship.pipeline.json", path: "scenes/ship.pipeline.json", status: "unsupported" },
    ]);
    const warnings = plan.diagnostics.filter((d) => d.severity === "warning");
    expect(
      warnings
        .filter((d) => d.code === "invalid_scene")
        .map((d) => d.path)
        .sort(),
    ).toEqual(["scenes/bad.pipeline.json", "scenes/bad.scene.json"]);
    expect(
      warnings.find((d) => d.code === "invalid_scene" && d.path === "scenes/bad.pipeline.json")!.message,
    ).toContain("stages");
    expect(warnings.filter((d) => d.code === "component_unsupported").map((d) => d.path)).toEqual(["scenes"]);
  });
});
