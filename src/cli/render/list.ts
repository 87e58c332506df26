/**
 * Human text of `gjc plugin list`, and the row helpers the other store verbs' text shares
 * (src/cli/render/store.ts). Apart from the other renderers because list is a start-up path:
 * their imports (collector, grants, capability diffs, MCP pins) are not loaded to print rows.
 */
import type { BundleRow, ForeignBundle, ListDocument } from "../../store/documents.ts";

export const counted = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function contributionLine(c: Record<string, number>): string {
  const parts = Object.entries(c)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`);
  return parts.length ? parts.join(", ") : "no contributions";
}

export function stateOf(b: BundleRow): string {
  if (b.quarantined) return "quarantined";
  const missing = b.c2?.missingServices ?? [];
  // A runtime waiting for a service this host lacks is pending, never shown as enabled.
  if (b.enabled && missing.length > 0) return `pending (this host lacks ${missing.join(", ")})`;
  // A runtime whose process failed in a running gjc host is failed, with why, never "enabled".
  const failed = b.c2?.runtimeFailures ?? [];
  if (b.enabled && failed.length > 0)
    return `failed (${failed.map((f) => `${f.code} in gjc host ${f.host}, ${f.realm}`).join("; ")})`;
  return b.enabled ? "enabled" : "disabled";
}

/** `identity (SHA256:…)` for a trusted publisher, `SHA256:… (unknown key)` otherwise. */
export const signerLine = (s: { fingerprint: string; identity?: string }) =>
  s.identity !== undefined ? `${s.identity} (${s.fingerprint})` : `${s.fingerprint} (unknown key, remembered)`;

export function describeList(r: Omit<ListDocument, "schema">): string {
  const lines: string[] = [];
  for (const family of ["gjc", "c2"] as const) {
    const rows = r.bundles.filter((b) => b.family === family);
    const title = family === "gjc" ? "GJC bundles" : "C2 bundles";
    lines.push(rows.length ? `${title} (${rows.length}):` : `${title}: none installed.`);
    for (const b of rows) {
      if (b.gjc) {
        const c = b.gjc.counts;
        lines.push(
          `  ${b.name} ${b.version}  [${b.scope}] ${stateOf(b)}  (${c.enabled} enabled, ${c.disabled} disabled, ${c.quarantined} quarantined)  from ${b.source.display}${b.gjc.writer === "gjc-agent" ? "  (the GJC agent's registry: read-only)" : ""}`,
        );
      }
      if (b.signer) lines.push(`    signed by ${signerLine(b.signer)}`);
      if (b.c2) {
        const c2 = b.c2;
        lines.push(
          `  ${b.name} ${b.version}  ${stateOf(b)}${c2.trustState === "needs-retrust" ? ", needs re-trust" : c2.trusted ? ", trusted" : ", not trusted"}  (${c2.id})`,
        );
        const needsTrust = c2.components.filter((c) => c.effectiveStatus === "requires-trust").length;
        const unsupported = c2.components.filter((c) => c.effectiveStatus === "unsupported").length;
        const diagnostics = c2.diagnostics.warnings + c2.diagnostics.errors;
        lines.push(
          `    ${contributionLine(c2.contributions)}${needsTrust ? ` · ${needsTrust} need trust` : ""}${unsupported ? ` · ${unsupported} unsupported` : ""}${diagnostics ? ` · ${counted(diagnostics, "diagnostic")}` : ""}`,
        );
      }
    }
    for (const p of r.problems.filter((x) => x.family === family)) {
      if (p.foreign) {
        lines.push(
          `  ${p.scope} scope: FOREIGN, not written by gjc for you (${p.problem}); nothing in it is loaded or changed. Delete it${p.scope === "project" ? ' (then "gjc plugin sync --project" installs what the lock names)' : ""}; "gjc plugin doctor" explains.`,
        );
      } else
        lines.push(
          p.id
            ? `  ${p.id}: unusable record (${p.problem}); run "gjc plugin doctor".`
            : `  ${p.scope} scope: registry ${p.path} is damaged (${p.problem}); run "gjc plugin doctor".`,
        );
    }
    const foreign = (r.foreign ?? []).filter((f) => f.family === family);
    if (foreign.length > 0)
      lines.push(`  Installed by another program (read-only; gjc never changes or deletes them):`);
    for (const f of foreign) lines.push(`    ${foreignLine(f)}`);
  }
  return lines.join("\n");
}

function foreignLine(f: ForeignBundle): string {
  if (f.writer !== "c2-app") return `${f.id}: a record of schema ${f.schemaVersion} that gjc did not write`;
  return `${f.name} ${f.version}  ${f.enabled ? "enabled" : "disabled"}, ${f.trusted ? "trusted" : "not trusted"} in the C2 app  (${f.id}${f.source ? `, ${f.source}` : ""})`;
}
