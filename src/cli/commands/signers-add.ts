import { addSigner } from "../../signing/signers.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeSignersAdd } from "../render/signing.ts";

export default defineVerb({
  name: "signers add",
  description: "Trust a publisher's key for gjc-plugin signatures (user allowed_signers, or the project's)",
  schema: "gjc/signers-add@1",
  args: {
    identity: { type: "positional", description: "The publisher's identity (e-mail or name)", required: true },
    key: { type: "positional", description: "Public key file (.pub) or key line", required: true },
    for: {
      type: "string",
      description: "Only for bundles whose name matches these patterns (comma-separated, * and ?)",
      valueHint: "pattern",
    },
    "cert-authority": {
      type: "boolean",
      description:
        "The key is a CA: trust user certificates it signed whose principals match <identity> (a pattern such as '*@acme.example')",
    },
    project: {
      type: "boolean",
      description: "Write the project's .gjc/allowed_signers (for this project's bundles only)",
    },
    ...jsonArg,
  },
  examples: [
    "gjc signers add release@acme.example ./acme.pub --for 'acme-*'",
    "gjc signers add me@example.com ~/.ssh/id_ed25519.pub --project",
  ],
  async run({ args, ctx }) {
    const r = addSigner(ctx, {
      identity: args.identity,
      key: args.key,
      forNames: args.for,
      project: args.project,
      certAuthority: args["cert-authority"],
    });
    return { json: { schema: "gjc/signers-add@1", ok: true, ...r }, human: describeSignersAdd(r) };
  },
});
