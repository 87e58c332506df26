import { uninstallBundle } from "../../app/uninstall.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeUninstall } from "../render/store.ts";

export default defineVerb({
  name: "plugin uninstall",
  description:
    "Remove an installed bundle, wherever it is installed (--user/--project/--family pick one when several match)",
  schema: "gjc/uninstall@1",
  args: {
    name: { type: "positional", description: "Installed bundle name", required: true },
    ...scopeArgs,
    ...familyArg,
    "keep-data": { type: "boolean", description: "C2: keep the bundle's data directories" },
    "dry-run": { type: "boolean", description: "Show what would be removed, change nothing" },
    ...jsonArg,
  },
  examples: ["gjc plugin uninstall my-bundle --user", "gjc plugin uninstall my-bundle --project --dry-run"],
  async run({ args, ctx }) {
    const r = await uninstallBundle(ctx, args.name, args, { dryRun: args["dry-run"], keepData: args["keep-data"] });
    return { json: { schema: "gjc/uninstall@1", ok: true, ...r }, human: describeUninstall(ctx, r) };
  },
});
