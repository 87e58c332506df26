import { digestSource } from "../../authoring/sign.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeDigest } from "../render/signing.ts";

export default defineVerb({
  name: "plugin digest",
  description: "Print the bundle's digest line: exactly the message a gjc-plugin signature signs",
  schema: "gjc/digest@1",
  args: {
    source: {
      type: "positional",
      description: "Bundle directory, archive, git URL or GitHub owner/repo",
      required: true,
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin digest ./my-bundle",
    "gjc plugin digest b.tgz | ssh-keygen -Y verify -n gjc-plugin -f allowed_signers -I me@example.com -s b.tgz.sig",
  ],
  async run({ args, ctx }) {
    const r = await digestSource(ctx, args.source);
    return { json: { schema: "gjc/digest@1", ok: true, ...r }, human: describeDigest(r) };
  },
});
