import { listSigners } from "../../signing/signers.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeSignersList } from "../render/signing.ts";

export default defineVerb({
  name: "signers list",
  description: "List trusted publishers (user and project) and revoked keys",
  schema: "gjc/signers-list@1",
  args: { ...jsonArg },
  examples: ["gjc signers list", "gjc signers list --json"],
  async run({ ctx }) {
    const r = listSigners(ctx);
    return { json: { schema: "gjc/signers-list@1", ok: true, ...r }, human: describeSignersList(r, ctx.out) };
  },
});
