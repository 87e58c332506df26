import { cacheVerify } from "../../sets/cache-command.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeCacheVerify } from "../render/sets.ts";

export default defineVerb({
  name: "plugin cache verify",
  description: "Re-hash every cached bundle against its digest (exit 3 when an entry is damaged); changes nothing",
  schema: "gjc/cache-verify@1",
  args: { ...jsonArg },
  examples: ["gjc plugin cache verify"],
  async run({ ctx }) {
    const r = cacheVerify(ctx);
    return { json: { schema: "gjc/cache-verify@1", ...r }, human: describeCacheVerify(r), exit: r.ok ? 0 : 3 };
  },
});
