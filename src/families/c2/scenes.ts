/**
 * Agent Scenes 1.0.0: `scenes/*.scene.json` and `scenes/*.pipeline.json` are judged against
 * the versioned JSON Schemas (copied unchanged from spec/agent-scenes/1.0.0/). gjc has no
 * scene engine, so a valid one is stored and shown as unsupported on this host; an invalid one
 * is skipped with a warning, as the reference does (never fatal for the bundle).
 *
 * The schemas use draft 2020-12 features TypeBox's own builders do not write (if/then, $ref
 * into $defs, look-ahead patterns); TypeBox's JSON Schema compiler (`typebox/schema`) checks
 * them as written, so there is no hand-made second copy of the rules. It is loaded only when a
 * bundle has scene files (schemas included), which keeps it off the start-up path of every other validate.
 */
export type SceneKind = "scene" | "pipeline";

interface Checker {
  Check(value: unknown): boolean;
  Errors(value: unknown): [boolean, { instancePath: string; message: string; params?: Record<string, unknown> }[]];
}

const compiled = new Map<SceneKind, Checker>();

function checker(kind: SceneKind): Checker {
  let c = compiled.get(kind);
  if (!c) {
    const { default: Schema } = require("typebox/schema") as typeof import("typebox/schema");
    const schema =
      kind === "scene"
        ? require("./agent-scenes/scene-1.0.0.schema.json")
        : require("./agent-scenes/pipeline-1.0.0.schema.json");
    c = Schema.Compile(schema as never) as unknown as Checker;
    compiled.set(kind, c);
  }
  return c;
}

/** The `$schema` a valid file of this kind carries. */
export const SCENE_SCHEMA_IDS: Record<SceneKind, string> = {
  scene: "https://agent-scenes.org/schemas/1.0.0/scene.schema.json",
  pipeline: "https://agent-scenes.org/schemas/1.0.0/pipeline.schema.json",
};

/**
 * Why a parsed scene or pipeline document does not conform, at most `max` reasons (JSON
 * pointer + message); empty when it does.
 */
export function sceneProblems(kind: SceneKind, doc: unknown, max = 3): string[] {
  const c = checker(kind);
  if (c.Check(doc)) return [];
  const [, errors] = c.Errors(doc);
  const out: string[] = [];
  for (const e of errors) {
    // "schema is false" repeats the additionalProperties error that follows it.
    if (e.message === "schema is false") continue;
    const extra = Array.isArray(e.params?.additionalProperties)
      ? ` (${(e.params.additionalProperties as string[]).join(", ")})`
      : "";
    const text = `${e.instancePath || "/"} ${e.message}${extra}`;
    if (!out.includes(text)) out.push(text);
    if (out.length >= max) break;
  }
  return out.length > 0 ? out : ["does not match the schema"];
}
