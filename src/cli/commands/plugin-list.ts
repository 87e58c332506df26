import { listAll } from "../../install/list-all.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

export default defineVerb({
  name: "plugin list",
  description: "List installed bundles of both families and both GJC scopes",
  schema: "gjc/list@1",
  args: { ...jsonArg },
  examples: ["gjc plugin list", "gjc plugin list --json"],
  async run({ ctx }) {
    const r = await listAll(ctx);
    return { json: { schema: "gjc/list@1", ok: r.ok, gjc: r.gjc, c2: r.c2, c2Broken: r.c2Broken, corrupt: r.corrupt }, human: r.human, exit: r.ok ? 0 : 3 };
  },
});
