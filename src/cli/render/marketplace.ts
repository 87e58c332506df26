/** Human text of `gjc marketplace list`. */
import type { CatalogListing } from "../../c2store/catalog-list.ts";
import type { Style } from "../../core/style.ts";

/** `catalog` is the path as the user typed it, so the suggested commands can be pasted back. */
export function describeCatalogListing(r: CatalogListing, catalog: string, s: Style): string {
  const lines = [`${s.bold(r.displayName ?? r.name)} ${s.dim(r.file)}`];
  for (const e of r.entries) {
    // Trust gates processes only: a data-only bundle is never "untrusted" in any way that matters.
    const trust = e.installed?.runsProcesses ? (e.installed.trusted ? ", trusted" : ", untrusted") : "";
    const state = e.installed
      ? s.green(`installed ${e.installed.version}${trust}${e.installed.enabled ? "" : ", disabled"}`)
      : e.installable
        ? "available"
        : s.yellow(`not installable: ${e.reasons.map((r) => r.message).join("; ")}`);
    lines.push(`  ${e.name} ${e.version}  ${s.dim(e.source)}  ${state}`);
    if (e.description) lines.push(`      ${e.description}`);
  }
  if (r.entries.length === 0) lines.push("  (no valid entries)");
  const errors = r.diagnostics.filter((d) => d.severity === "error").length;
  if (errors > 0)
    lines.push(
      "",
      `${errors} entr${errors === 1 ? "y was" : "ies were"} left out as invalid; run gjc marketplace validate ${catalog} to see why.`,
    );
  lines.push("", `Install one with: gjc plugin install <name>@${catalog}`);
  return lines.join("\n");
}
