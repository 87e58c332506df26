import { requireScope } from "../../install/install-command.ts";
import { upgradeGjc } from "../../install/upgrade.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeInstall } from "./plugin-install.ts";

export default defineVerb({
  name: "plugin upgrade",
  description: "Re-fetch an installed GJC bundle from its recorded source and apply the changes",
  schema: "gjc/upgrade@1",
  args: {
    name: { type: "positional", description: "Installed bundle name", required: true },
    ...scopeArgs,
    "dry-run": { type: "boolean", description: "Show added, removed and kept surfaces without changing anything" },
    ...jsonArg,
  },
  examples: ["gjc plugin upgrade my-bundle --user --dry-run", "gjc plugin upgrade my-bundle --project"],
  async run({ args, ctx }) {
    const scope = requireScope(args, "Upgrading a GJC bundle");
    const result = await upgradeGjc(ctx, args.name, scope, { dryRun: args["dry-run"], onProgress: (m) => ctx.log.progress(m) });
    return { json: { schema: "gjc/upgrade@1", ok: true, family: "gjc", ...result }, human: describeInstall(result, "upgrade") };
  },
});
