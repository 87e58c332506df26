import { appendRelease } from "../../sets/release-log.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeLogAppend } from "../render/release-log.ts";

export default defineVerb({
  name: "plugin log append",
  description: "Add one release to a log and sign a new checkpoint (a version is published once)",
  schema: "gjc/log-append@1",
  args: {
    dir: { type: "positional", description: "The log directory", required: true },
    bundle: {
      type: "positional",
      description: "A bundle directory or archive: its name, version and digest are computed",
      required: false,
    },
    name: { type: "string", description: "Without a bundle: the release's name", valueHint: "name" },
    version: { type: "string", description: "Without a bundle: the release's version", valueHint: "version" },
    digest: {
      type: "string",
      description: "Without a bundle: its digest, sha256:<hex> (gjc plugin lock's integrity)",
      valueHint: "sha256:hex",
    },
    signer: {
      type: "string",
      description:
        "The SSH key fingerprint (SHA256:…) that signed the release; with a bundle it is read from its signature (a different one is refused)",
      valueHint: "fingerprint",
    },
    "key-file": {
      type: "string",
      description: "The log's note signer key (default ~/.gjc/log-keys/<key id>.key)",
      valueHint: "path",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin log append gjc-log ./my-bundle",
    "gjc plugin log append gjc-log --name hello --version 1.2.0 --digest sha256:<hex> --signer SHA256:abc…",
  ],
  async run({ args, ctx }) {
    const r = await appendRelease(ctx, {
      dir: args.dir,
      bundle: args.bundle,
      name: args.name,
      version: args.version,
      digest: args.digest,
      signer: args.signer,
      keyFile: args["key-file"],
    });
    return { json: { schema: "gjc/log-append@1", ok: true, ...r }, human: describeLogAppend(r) };
  },
});
