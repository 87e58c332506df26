import { packBundle } from "../../authoring/pack.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describePack } from "../render/authoring.ts";

export default defineVerb({
  name: "plugin pack",
  description: "Make a reproducible .tgz of exactly the files install would copy, and print its SHA-256",
  schema: "gjc/pack@1",
  args: {
    dir: { type: "positional", description: "Bundle directory", required: true },
    output: {
      type: "string",
      alias: "o",
      description: "Archive to write (default: <name>-<version>.tgz next to the bundle)",
      valueHint: "file.tgz",
    },
    sign: {
      type: "string",
      description: "Also sign the archive with this SSH key (writes <archive>.sig)",
      valueHint: "key",
    },
    ...jsonArg,
  },
  examples: ["gjc plugin pack ./my-bundle", "gjc plugin pack . -o ../my-bundle.tgz"],
  async run({ args, ctx }) {
    const r = await packBundle(ctx, args.dir, args.output, { signWith: args.sign });
    return { json: { schema: "gjc/pack@1", ok: true, ...r }, human: describePack(r, ctx.out) };
  },
});
