import { activateSkill } from "../../gjcsession/activate.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeActivation } from "../render/activate.ts";

export default defineVerb({
  name: "plugin activate",
  description:
    "Tier-2 activation: consume a sub-skill flag of a skill invocation and print the sub-skill blocks to inject",
  schema: "gjc/activate@1",
  args: {
    skill: {
      type: "positional",
      description: "The invoked workflow skill (autoresearch, deep-interview, ralplan, ultragoal)",
      required: true,
    },
    project: {
      type: "string",
      description: "Project directory whose .gjc/gjc-plugins is the project scope (default: the current directory)",
      valueHint: "dir",
    },
    phase: {
      type: "string",
      description: "The skill's current phase (default: its initial phase)",
      valueHint: "phase",
    },
    ...jsonArg,
  },
  rest: "args",
  passthrough: true,
  examples: [
    "gjc plugin activate ralplan --design the storage layer --json",
    "gjc plugin activate ralplan --phase architect -- --design",
  ],
  async run({ args, rest, ctx }) {
    const r = await activateSkill(ctx, { skill: args.skill, args: rest, project: args.project, phase: args.phase });
    return { json: { schema: "gjc/activate@1", ok: true, ...r }, human: describeActivation(r, ctx.out) };
  },
});
