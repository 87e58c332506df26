import { scaffoldBundle } from "../../authoring/scaffold.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeInit } from "../render/authoring.ts";

export default defineVerb({
  name: "plugin init",
  description: "Scaffold a new bundle that validates as written (never overwrites anything)",
  schema: "gjc/init@1",
  args: {
    dir: { type: "positional", description: "Directory to create the bundle in (new or empty)", required: true },
    family: { type: "enum", options: ["c2", "gjc"], description: "Bundle family", required: true },
    name: { type: "string", description: "Plugin name (default: derived from the directory name)" },
    runtime: { type: "enum", options: ["node", "bun"], description: "C2 only: add a process runtime in this language" },
    parent: {
      type: "string",
      description: "GJC only: the workflow skill or agent the sub-skill binds to (default ralplan)",
    },
    phase: {
      type: "string",
      description:
        "GJC only: the parent's phase it is active in (default: architect for ralplan, else the parent's first phase)",
    },
    "activation-arg": {
      type: "string",
      description: "GJC only: the flag that activates it (default: the bundle name)",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin init ./hello --family c2 --runtime node",
    "gjc plugin init ./my-bundle --family gjc",
    "gjc plugin init . --family gjc --parent deep-interview --phase handoff --activation-arg notes",
  ],
  async run({ args, ctx }) {
    if (!args.family) {
      const { usageError } = await import("../../core/errors.ts");
      throw usageError("Missing --family.", "Pass --family c2 or --family gjc.", "missing_argument");
    }
    const result = scaffoldBundle(ctx, {
      dir: args.dir,
      family: args.family as "c2" | "gjc",
      name: args.name,
      runtime: args.runtime as "node" | "bun" | undefined,
      parent: args.parent,
      phase: args.phase,
      activationArg: args["activation-arg"],
    });
    return { json: { schema: "gjc/init@1", ok: true, ...result }, human: describeInit(result, args.dir, ctx.out) };
  },
});
