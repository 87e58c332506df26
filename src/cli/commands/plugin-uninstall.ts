import { scopeFromFlags } from "../../install/install-command.ts";
import { uninstallGjc } from "../../install/uninstall.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";
import { c2ByName } from "../../install/name-dispatch.ts";

export default defineVerb({
  name: "plugin uninstall",
  description: "Remove an installed bundle (GJC with --user/--project; otherwise the C2 bundle of that name)",
  schema: "gjc/uninstall@1",
  args: {
    name: { type: "positional", description: "Installed bundle name", required: true },
    ...scopeArgs,
    "keep-data": { type: "boolean", description: "C2: keep the bundle's data directories" },
    "dry-run": { type: "boolean", description: "Show what would be removed, change nothing" },
    ...jsonArg,
  },
  examples: ["gjc plugin uninstall my-bundle --user", "gjc plugin uninstall my-bundle --project --dry-run"],
  async run({ args, ctx }) {
    const scope = scopeFromFlags(args);
    if (!scope) return c2ByName(ctx, "uninstall", { name: args.name, keepData: args["keep-data"], dryRun: args["dry-run"] });
    const r = await uninstallGjc(ctx, args.name, scope, { dryRun: args["dry-run"] });
    const human =
      r.status === "would-uninstall"
        ? [`[dry-run] Would uninstall ${r.name} ${r.version} from the ${r.scope} scope, removing ${r.files.length} file${r.files.length === 1 ? "" : "s"}:`, ...r.files.map((f) => `  ${f}`)].join("\n")
        : [`Uninstalled ${r.name} ${r.version} from the ${r.scope} scope (${r.files.length} file${r.files.length === 1 ? "" : "s"} removed).`, ...(r.unowned.length ? [`  also removed ${r.unowned.length} item(s) the bundle did not install: ${r.unowned.slice(0, 5).join(", ")}`] : [])].join("\n");
    return { json: { schema: "gjc/uninstall@1", ok: true, family: "gjc", ...r }, human };
  },
});
