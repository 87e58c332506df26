import { withCliHost } from "../../c2host/cli-host.ts";
import { listLanguageServers } from "../../c2host/lsp.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { projectArg } from "./plugin-run-options.ts";

export default defineVerb({
  name: "plugin lsp list",
  description: "List C2 language servers and which one serves each language (conflicts fail closed)",
  schema: "gjc/plugin-lsp-list@1",
  args: { ...projectArg, ...jsonArg },
  examples: ["gjc plugin lsp list", "gjc plugin lsp list --project . --json"],
  async run({ args, ctx }) {
    const r = await withCliHost(ctx, async (host) => listLanguageServers(host, args.project));
    const s = ctx.out;
    const lines: string[] = [];
    if (r.servers.length === 0) lines.push("No C2 language servers are installed.");
    for (const sv of r.servers) lines.push(`${sv.status === "ready" ? s.green("ready") : s.yellow(sv.status)}  ${s.bold(`${sv.pluginName}/${sv.server}`)}  ${sv.languages.join(", ")}  (${sv.command})`);
    if (r.languages.length > 0) lines.push("", "Languages:");
    for (const l of r.languages) {
      if (l.provider) lines.push(`  ${l.language} → ${l.provider.pluginName}/${l.provider.server}`);
      else lines.push(`  ${l.language} → ${s.red("conflict")}: ${l.providers.map((p) => `${p.pluginName}/${p.server}`).join(", ")} (no server; disable all but one)`);
    }
    const conflicts = r.languages.filter((l) => l.provider === null).map((l) => l.language);
    return { json: { schema: "gjc/plugin-lsp-list@1", ok: true, servers: r.servers, languages: r.languages, conflicts }, human: lines.join("\n") };
  },
});
