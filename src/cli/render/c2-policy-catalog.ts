/** Human text of `gjc plugin policy catalog`. */
import type { CatalogResult } from "../../c2store/policy-catalog.ts";
import type { Style } from "../../core/style.ts";

export function describePolicyCatalog(s: Style, result: CatalogResult): string {
  const lines: string[] = [];
  const scope = result.scope.kind === "user" ? "user scope" : `project ${result.scope.projectPath}`;
  lines.push(`C2 policy, ${scope} (config revision ${result.configRevision}, graph ${result.graphRevision})`);
  if (result.recovery.kind !== "normal") {
    lines.push(s.yellow(`Recovery: ${result.recovery.kind.replace(/-/g, " ")}: ${result.recovery.error}`));
    lines.push(`  Run "gjc plugin policy reset <plugin>" to write a valid policy again.`);
  }
  if (result.plugins.length === 0) lines.push("No C2 bundles are installed.");
  for (const p of result.plugins) {
    const st = p.effectiveState.status;
    const status =
      st === "enabled"
        ? s.green("enabled")
        : st === "untrusted"
          ? s.yellow(p.effectiveState.reason === "needs-retrust" ? "needs re-trust" : "untrusted")
          : st === "pending"
            ? s.yellow(`pending: this host lacks ${p.missingServices.join(", ")}`)
            : s.dim("disabled");
    lines.push(`  ${s.bold(p.name)} ${p.version}  ${p.id}`);
    lines.push(
      `    ${status}${p.effectiveState.reason && st !== "untrusted" && st !== "pending" ? ` (${p.effectiveState.reason})` : ""} · policy ${p.state} → ${p.effective.state} (${p.effective.source}) · ${p.hasRuntime ? `runtime, scopes ${p.metadata.scopeSupport.join("+")}` : "no runtime"}`,
    );
    if (p.dependencies.required.length + p.dependencies.optional.length > 0) {
      lines.push(
        `    needs ${p.dependencies.required.join(", ") || "nothing"}${p.dependencies.optional.length > 0 ? `; optional ${p.dependencies.optional.join(", ")}` : ""} · ${p.metadata.category}`,
      );
    }
    for (const [c, v] of Object.entries(p.effective.components))
      lines.push(`    component ${c.slice(p.id.length + 1)}: ${v}`);
    for (const c of p.commands)
      lines.push(
        `    command ${c.id}${c.description ? ` — ${c.description}` : ""} ${s.dim(c.argsSchema === null ? "(no argsSchema)" : `args ${JSON.stringify(c.argsSchema)}`)}`,
      );
  }
  for (const b of result.broken) lines.push(s.yellow(`  ${b.id}: unusable record (${b.problem})`));
  return lines.join("\n");
}
