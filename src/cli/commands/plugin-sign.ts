import { signBundle } from "../../authoring/sign.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeSign } from "../render/signing.ts";

export default defineVerb({
  name: "plugin sign",
  description:
    "Sign a bundle's digest with an SSH key (writes <archive>.sig, or gjc-signature.sshsig at a directory's root)",
  schema: "gjc/sign@1",
  args: {
    target: { type: "positional", description: "Bundle directory or .tgz archive", required: true },
    key: {
      type: "string",
      description: "OpenSSH private key, or the .pub of a key held by ssh-agent",
      valueHint: "file",
      required: true,
    },
    identity: {
      type: "string",
      description: "Your publisher identity: prints the allowed_signers line consumers add",
      valueHint: "id",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin sign ./my-bundle --key ~/.ssh/id_ed25519",
    "gjc plugin sign my-bundle-1.0.0.tgz --key ~/.ssh/id_ed25519.pub --identity me@example.com",
  ],
  async run({ args, ctx }) {
    const r = await signBundle(ctx, args.target, { key: args.key, identity: args.identity });
    return { json: { schema: "gjc/sign@1", ok: true, ...r }, human: describeSign(r, ctx.out) };
  },
});
