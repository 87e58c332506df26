import { auditGated } from "../../audit/audit.ts";
import { usageError } from "../../core/errors.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeGatedAudit } from "../render/audit.ts";

export default defineVerb({
  name: "plugin audit",
  description: "Show what a bundle can run, reach and inject, with findings, before (or after) you install or trust it",
  schema: "gjc/audit@1",
  args: {
    target: {
      type: "positional",
      description:
        "A source install accepts (directory, archive, git URL, GitHub, name@catalog) or an installed bundle's name",
      required: true,
    },
    ...scopeArgs,
    catalog: {
      type: "string",
      description: "C2: audit the entry named <target> in this marketplace.json",
      valueHint: "marketplace.json",
    },
    sha256: { type: "string", description: "Archive sources: the SHA-256 the archive must have", valueHint: "hex" },
    against: {
      type: "string",
      description: "Also show the capability diff from this installed bundle to the audited one",
      valueHint: "name",
    },
    sarif: { type: "boolean", description: "Print SARIF 2.1.0 instead of the human report" },
    "fail-on": {
      type: "string",
      description:
        "Exit 3 when a finding matches: a level (error, warning, note; that level or worse) or rule ids, comma-separated",
      valueHint: "rule|level",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin audit ./my-bundle",
    "gjc plugin audit https://example.com/b.git#v1.2.0 --sarif > audit.sarif",
    "gjc plugin audit hello-runtime --fail-on warning",
    "gjc plugin audit ./b --fail-on unpinned-launch-fetch",
    "gjc plugin audit ./new-version --against my-bundle",
  ],
  async run({ args, ctx }) {
    if (args.sarif && args.json)
      throw usageError(
        "Give either --sarif or --json, not both.",
        "--sarif prints a SARIF 2.1.0 log; --json prints gjc/audit@1.",
        "invalid_option_value",
      );
    const report = await auditGated(ctx, {
      target: args.target,
      user: args.user,
      project: args.project,
      catalog: args.catalog,
      sha256: args.sha256,
      against: args.against,
      failOn: args["fail-on"],
    });
    const exit = report.failing > 0 ? 3 : 0;
    const json = { schema: "gjc/audit@1", ok: exit === 0, ...report };
    if (args.sarif) {
      const { toSarif } = await import("../../audit/sarif.ts");
      return { json, human: JSON.stringify(toSarif(report), null, 2), exit };
    }
    return { json, human: describeGatedAudit(report, ctx.out), exit };
  },
});
