import { installSpec } from "../../app/install.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeInstall } from "../render/store.ts";

export default defineVerb({
  name: "plugin install",
  description: "Install a bundle from a directory, tarball, git URL or GitHub (GJC bundles need --user or --project)",
  schema: "gjc/install@1",
  args: {
    source: {
      type: "positional",
      description: "Directory, .tgz/.tar.gz/.tar (local or https://), git URL[#ref], or GitHub owner/repo",
      required: true,
    },
    ...scopeArgs,
    force: {
      type: "boolean",
      description: "Replace an installed bundle of the same name whose content or source differs",
    },
    "dry-run": { type: "boolean", description: "Check everything and show what would happen, change nothing" },
    sha256: {
      type: "string",
      description: "Archive sources: the SHA-256 the archive must have (checked before anything is written)",
      valueHint: "hex",
    },
    integrity: {
      type: "string",
      description:
        "Any source: the content integrity the bundle must have (content.integrity of gjc plugin audit --json); anything else is refused",
      valueHint: "sha256:hex",
    },
    "require-signed": { type: "boolean", description: "Refuse a bundle without a valid gjc-plugin signature" },
    "accept-signer": { type: "boolean", description: "Accept content signed by another key than the installed copy's" },
    catalog: {
      type: "string",
      description: "C2: install the entry named <source> from this marketplace.json (or <name>@<catalog>)",
      valueHint: "marketplace.json",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin install ./my-bundle --user",
    "gjc plugin install hello-runtime@./catalog",
    "gjc plugin install hello-runtime --catalog ./catalog/marketplace.json",
    "gjc plugin install https://example.com/b.git#v1.2.0 --project",
    "gjc plugin install ./b.tgz --user --force",
  ],
  async run({ args, ctx }) {
    const r = await installSpec(ctx, {
      spec: args.source,
      user: args.user,
      project: args.project,
      force: args.force,
      dryRun: args["dry-run"],
      catalog: args.catalog,
      sha256: args.sha256,
      integrity: args.integrity,
      requireSigned: args["require-signed"],
      acceptSigner: args["accept-signer"],
    });
    return { json: { schema: "gjc/install@1", ok: true, ...r }, human: describeInstall(ctx, r) };
  },
});
