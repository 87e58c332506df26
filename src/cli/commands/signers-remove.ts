import { removeSigner } from "../../signing/signers.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeSignersRemove } from "../render/signing.ts";

export default defineVerb({
  name: "signers remove",
  description: "Stop trusting a publisher (by identity or SHA256 fingerprint); its key becomes unknown again",
  schema: "gjc/signers-remove@1",
  args: {
    who: { type: "positional", description: "Identity or SHA256:… fingerprint", required: true },
    project: { type: "boolean", description: "Edit the project's .gjc/allowed_signers" },
    ...jsonArg,
  },
  examples: ["gjc signers remove release@acme.example", "gjc signers remove SHA256:abc… --project"],
  async run({ args, ctx }) {
    const r = removeSigner(ctx, { who: args.who, project: args.project });
    return { json: { schema: "gjc/signers-remove@1", ok: true, ...r }, human: describeSignersRemove(r) };
  },
});
