import { cacheList } from "../../sets/cache-command.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeCacheList } from "../render/sets.ts";

export default defineVerb({
  name: "plugin cache list",
  description: "List the bundle contents held in the content cache, by integrity",
  schema: "gjc/cache-list@1",
  args: { ...jsonArg },
  examples: ["gjc plugin cache list", "gjc plugin cache list --json"],
  async run({ ctx }) {
    const r = cacheList(ctx);
    return { json: { schema: "gjc/cache-list@1", ok: true, ...r }, human: describeCacheList(r) };
  },
});
