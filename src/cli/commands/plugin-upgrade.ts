import { usageError } from "../../core/errors.ts";
import { scopeFromFlags } from "../../store/resolve.ts";
import { upgradeBundle } from "../../app/upgrade.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeInstall } from "../render/store.ts";

export default defineVerb({
  name: "plugin upgrade",
  description: "Re-fetch an installed bundle from its recorded source and apply the changes",
  schema: "gjc/upgrade@1",
  args: {
    name: { type: "positional", description: "Installed bundle name (or --all)", required: false },
    all: {
      type: "boolean",
      description:
        "Every installed bundle of the scope (both scopes and C2 without a flag), one outcome each; the lock is updated when one exists",
    },
    ...scopeArgs,
    ...familyArg,
    "require-signed": { type: "boolean", description: "Refuse content without a valid gjc-plugin signature" },
    "accept-signer": { type: "boolean", description: "Accept content signed by another key than the installed copy's" },
    "dry-run": { type: "boolean", description: "Show added, removed and kept surfaces without changing anything" },
    ...jsonArg,
  },
  examples: [
    "gjc plugin upgrade my-bundle --user --dry-run",
    "gjc plugin upgrade my-bundle --project",
    "gjc plugin upgrade --all --project --dry-run",
  ],
  async run({ args, ctx }) {
    if (args.all) {
      if (args.name !== undefined)
        throw usageError(
          "Give a bundle name or --all, not both.",
          "gjc plugin upgrade --all upgrades every installed bundle.",
        );
      const scope = scopeFromFlags(args);
      const { upgradeAll } = await import("../../sets/upgrade-all.ts");
      const r = await upgradeAll(ctx, scope ? [scope] : ["user", "project"], {
        dryRun: args["dry-run"],
        requireSigned: args["require-signed"],
        acceptSigner: args["accept-signer"],
      });
      return {
        json: { schema: "gjc/upgrade@1", ...r },
        human: (await import("../render/sets.ts")).describeUpgradeAll(r),
        exit: r.ok ? 0 : 1,
      };
    }
    if (args.name === undefined)
      throw usageError(
        "gjc plugin upgrade needs a bundle name, or --all.",
        "Run gjc plugin list to see the installed bundles.",
      );
    const r = await upgradeBundle(ctx, args.name, args, {
      dryRun: args["dry-run"],
      requireSigned: args["require-signed"],
      acceptSigner: args["accept-signer"],
    });
    return { json: { schema: "gjc/upgrade@1", ok: true, ...r }, human: describeInstall(ctx, r, "upgrade") };
  },
});
