import { listCatalog } from "../../c2store/catalog-list.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

export default defineVerb({
  name: "marketplace list",
  description: "List a C2 catalog's entries, whether each can be installed, and which are installed",
  schema: "gjc/marketplace-list@1",
  args: {
    catalog: { type: "positional", description: "marketplace.json or the directory holding it", required: true },
    ...jsonArg,
  },
  examples: ["gjc marketplace list ./catalog", "gjc plugin install hello-runtime@./catalog"],
  async run({ args, ctx }) {
    const r = listCatalog(ctx, args.catalog);
    const s = ctx.out;
    const lines = [`${s.bold(r.displayName ?? r.name)} ${s.dim(r.file)}`];
    for (const e of r.entries) {
      // Trust gates processes only: a data-only bundle is never "untrusted" in any way that matters.
      const trust = e.installed?.runsProcesses ? (e.installed.trusted ? ", trusted" : ", untrusted") : "";
      const state = e.installed ? s.green(`installed ${e.installed.version}${trust}${e.installed.enabled ? "" : ", disabled"}`) : e.installable ? "available" : s.yellow(`not installable: ${e.reason}`);
      lines.push(`  ${e.name} ${e.version}  ${s.dim(e.source)}  ${state}`);
      if (e.description) lines.push(`      ${e.description}`);
    }
    if (r.entries.length === 0) lines.push("  (no valid entries)");
    const errors = r.diagnostics.filter((d) => d.severity === "error").length;
    if (errors > 0) lines.push("", `${errors} entr${errors === 1 ? "y was" : "ies were"} left out as invalid; run gjc marketplace validate ${args.catalog} to see why.`);
    lines.push("", `Install one with: gjc plugin install <name>@${args.catalog}`);
    return { json: { schema: "gjc/marketplace-list@1", ok: true, ...r }, human: lines.join("\n") };
  },
});
