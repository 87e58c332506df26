import { listScaffolds } from "../../scaffold/catalog.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeScaffoldList } from "../render/scaffold.ts";

export default defineVerb({
  name: "plugin scaffold list",
  description: "List the scaffolds (template folders) of installed C2 bundles",
  schema: "gjc/plugin-scaffold-list@1",
  args: {
    bundle: { type: "positional", description: "Only this installed C2 bundle", required: false },
    ...jsonArg,
  },
  examples: ["gjc plugin scaffold list", "gjc plugin scaffold list office --json"],
  async run({ args, ctx }) {
    const { scaffolds } = await listScaffolds(ctx, args.bundle);
    return {
      json: { schema: "gjc/plugin-scaffold-list@1", ok: true, scaffolds },
      human: describeScaffoldList(ctx.out, scaffolds),
    };
  },
});
