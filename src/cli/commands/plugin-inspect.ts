import { inspectBundle } from "../../app/inspect.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeInspect } from "../render/store.ts";

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
    const bundle = await inspectBundle(ctx, args.name, args);
    return { json: { schema: "gjc/inspect@1", ok: true, family: bundle.family, bundle }, human: describeInspect(bundle) };
  },
});
