import { initLog } from "../../sets/release-log.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeLogInit } from "../render/release-log.ts";

export default defineVerb({
  name: "plugin log init",
  description:
    "Make an empty release log (log-key.pub, checkpoint, releases) and its Ed25519 note key; never overwrites",
  schema: "gjc/log-init@1",
  args: {
    dir: { type: "positional", description: "The log directory to make (new or empty), e.g. gjc-log", required: true },
    "key-file": {
      type: "string",
      description:
        "The note signer key: used if it exists, else made there (0600). Default ~/.gjc/log-keys/<key id>.key",
      valueHint: "path",
    },
    origin: {
      type: "string",
      description: "The log's origin and key name, a schema-less URL such as example.com/acme/plugins",
      valueHint: "origin",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin log init gjc-log --origin example.com/acme/plugins",
    "gjc plugin log init ./catalog/gjc-log --key-file ~/keys/acme-log.key",
  ],
  async run({ args, ctx }) {
    const r = initLog(ctx, { dir: args.dir, keyFile: args["key-file"], origin: args.origin });
    return { json: { schema: "gjc/log-init@1", ok: true, ...r }, human: describeLogInit(r) };
  },
});
