import { revokeSigner } from "../../signing/signers.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeSignersRevoke } from "../render/signing.ts";

export default defineVerb({
  name: "signers revoke",
  description: "Revoke a key: every bundle signed by it is refused from now on, whatever a project file says",
  schema: "gjc/signers-revoke@1",
  args: {
    who: {
      type: "positional",
      description: "Identity, SHA256:… fingerprint, public key file or key line",
      required: true,
    },
    ...jsonArg,
  },
  examples: ["gjc signers revoke release@acme.example", "gjc signers revoke ./leaked.pub"],
  async run({ args, ctx }) {
    const r = revokeSigner(ctx, args.who);
    return { json: { schema: "gjc/signers-revoke@1", ok: true, ...r }, human: describeSignersRevoke(r) };
  },
});
