import { inspectBundle } from "../../app/inspect.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeForeign, describeInspect } from "../render/store.ts";

export default defineVerb({
  name: "plugin inspect",
  description: "Show one installed bundle: state, source and commit, files, surfaces or components",
  schema: "gjc/inspect@1",
  args: {
    name: { type: "positional", description: "Installed bundle name", required: true },
    ...scopeArgs,
    ...familyArg,
    ...jsonArg,
  },
  examples: ["gjc plugin inspect my-bundle", "gjc plugin inspect my-bundle --project --json"],
  async run({ args, ctx }) {
    const found = await inspectBundle(ctx, args.name, args);
    if ("foreign" in found)
      return {
        json: { schema: "gjc/inspect@1", ok: true, family: "c2", foreign: found.foreign },
        human: describeForeign(found.foreign),
      };
    return {
      json: { schema: "gjc/inspect@1", ok: true, family: found.family, bundle: found },
      human: describeInspect(found),
    };
  },
});
