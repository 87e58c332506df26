/** Human text of `gjc plugin scaffold list` and `apply`. */
import type { Style } from "../../core/style.ts";
import type { ScaffoldApplyResult } from "../../scaffold/apply.ts";
import type { ScaffoldListRow } from "../../scaffold/catalog.ts";

export function describeScaffoldList(s: Style, rows: ScaffoldListRow[]): string {
  if (rows.length === 0) return "No installed C2 bundle ships a scaffold (folders under scaffolds/ or templates/).";
  return rows
    .map((r) => {
      const state = r.quarantined ? s.red("quarantined") : r.enabled ? s.green("available") : s.dim("disabled");
      const title = r.title !== r.name ? ` "${r.title}"` : "";
      return `${state}  ${s.bold(`${r.pluginName}/${r.name}`)}${title}  ${r.files} file${r.files === 1 ? "" : "s"}  ${s.dim(r.path)}${r.description ? `\n    ${r.description}` : ""}`;
    })
    .join("\n");
}

export function describeScaffoldApply(s: Style, r: ScaffoldApplyResult): string {
  const head = r.dryRun
    ? `[dry-run] Would write ${r.files.length} file${r.files.length === 1 ? "" : "s"} of ${r.pluginName}/${r.scaffold.name} into ${r.target}${r.createdTarget ? " (a new directory)" : ""}; nothing conflicts:`
    : `Wrote ${r.files.length} file${r.files.length === 1 ? "" : "s"} of ${r.pluginName}/${r.scaffold.name} into ${r.target}${r.createdTarget ? " (created)" : ""}:`;
  return [head, ...r.files.map((f) => `  ${f.path} ${s.dim(`(${f.bytes} bytes)`)}`)].join("\n");
}
