import { formatBytes } from "../../bundle/collect.ts";
import { c2ByName } from "../../install/name-dispatch.ts";
import { scopeFromFlags } from "../../install/install-command.ts";
import { inspectGjc } from "../../install/query.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";

export default defineVerb({
  name: "plugin inspect",
  description: "Show one installed bundle: surfaces with their state, files, source and commit",
  schema: "gjc/inspect@1",
  args: {
    name: { type: "positional", description: "Installed bundle name", required: true },
    ...scopeArgs,
    ...jsonArg,
  },
  examples: ["gjc plugin inspect my-bundle --user", "gjc plugin inspect my-bundle --project --json"],
  async run({ args, ctx }) {
    const scope = scopeFromFlags(args);
    if (!scope) return c2ByName(ctx, "inspect", { name: args.name });
    const r = inspectGjc(ctx, args.name, scope);
    const lines = [
      `${r.name} ${r.version}  [${r.scope}] ${r.quarantined ? "quarantined" : r.enabled ? "enabled" : "disabled"}`,
      `  source:    ${r.sourceRecord.display} (${r.source.kind}, fetched ${r.source.resolvedAt})`,
      ...(r.sourceRecord.sha ? [`  commit:    ${r.sourceRecord.sha}`] : []),
      ...(r.sourceRecord.sha256 ? [`  archive:   sha256 ${r.sourceRecord.sha256}`] : []),
      `  manifest:  sha256 ${r.manifestHash}`,
      `  installed: ${r.installedAt} (updated ${r.updatedAt})`,
      `  location:  ${r.pluginRoot}`,
      `  surfaces (${r.surfaces.length}):`,
      ...r.surfaces.map((s) => `    ${s.state.padEnd(11)} ${s.id}${s.quarantine ? ` (${s.quarantine})` : ""}`),
      `  files (${r.files.length}, ${formatBytes(r.files.reduce((n, f) => n + f.bytes, 0))}):`,
      ...r.files.map((f) => `    ${f.mode.toString(8)} ${f.sha256.slice(0, 12)} ${String(f.bytes).padStart(9)}  ${f.relativePath}`),
      ...r.quarantine.map((q) => `  quarantine: ${q.surfaceId} ${q.code}: ${q.message} (${q.detectedAt})`),
    ];
    return { json: { schema: "gjc/inspect@1", ok: true, family: "gjc", bundle: r }, human: lines.join("\n") };
  },
});
