import { listBundles } from "../../app/list.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeList } from "../render/list.ts";

export default defineVerb({
  name: "plugin list",
  description: "List installed bundles of both families (--user/--project/--family filter)",
  schema: "gjc/list@1",
  args: { ...scopeArgs, ...familyArg, ...jsonArg },
  examples: ["gjc plugin list", "gjc plugin list --project --json"],
  async run({ args, ctx }) {
    const r = await listBundles(ctx, args);
    return { json: { schema: "gjc/list@1", ...r }, human: describeList(r), exit: r.ok ? 0 : 3 };
  },
});
