import { usageError } from "../../core/errors.ts";
import { requireScope, scopeFromFlags } from "../../install/install-command.ts";
import { upgradeGjc } from "../../install/upgrade.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeInstall } from "./plugin-install.ts";

export default defineVerb({
  name: "plugin upgrade",
  description: "Re-fetch an installed bundle from its recorded source and apply the changes (GJC with --user/--project; otherwise C2)",
  schema: "gjc/upgrade@1",
  args: {
    name: { type: "positional", description: "Installed bundle name (or --all)", required: false },
    all: { type: "boolean", description: "Every installed bundle of the scope (both scopes and C2 without a flag), one outcome each; the lock is updated when one exists" },
    ...scopeArgs,
    "dry-run": { type: "boolean", description: "Show added, removed and kept surfaces without changing anything" },
    ...jsonArg,
  },
  examples: ["gjc plugin upgrade my-bundle --user --dry-run", "gjc plugin upgrade my-bundle --project", "gjc plugin upgrade --all --project --dry-run"],
  async run({ args, ctx }) {
    if (args.all) {
      if (args.name !== undefined) throw usageError("Give a bundle name or --all, not both.", "gjc plugin upgrade --all upgrades every installed bundle.");
      const scope = scopeFromFlags(args);
      const { upgradeAll } = await import("../../sets/upgrade-all.ts");
      const r = await upgradeAll(ctx, scope ? [scope] : ["user", "project"], { dryRun: args["dry-run"] });
      return { json: { schema: "gjc/upgrade@1", ...r }, human: (await import("../render/sets.ts")).describeUpgradeAll(r), exit: r.ok ? 0 : 1 };
    }
    if (args.name === undefined) throw usageError("gjc plugin upgrade needs a bundle name, or --all.", "Run gjc plugin list to see the installed bundles.");
    if (!args.user && !args.project) {
      // Without a scope flag the name means a C2 bundle (C2 installs are user-wide).
      const { c2ByName } = await import("../../install/name-dispatch.ts");
      return c2ByName(ctx, "upgrade", { name: args.name, dryRun: args["dry-run"] });
    }
    const scope = requireScope(args, "Upgrading a GJC bundle");
    const result = await upgradeGjc(ctx, args.name, scope, { dryRun: args["dry-run"], onProgress: (m) => ctx.log.progress(m) });
    return { json: { schema: "gjc/upgrade@1", ok: true, family: "gjc", ...result }, human: describeInstall(result, "upgrade") };
  },
});
