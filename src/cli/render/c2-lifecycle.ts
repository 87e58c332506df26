/** Human text for the C2 side of the shared plugin verbs (install, uninstall, inspect, verify). */
import { formatBytes } from "../../bundle/collect.ts";
import { describeCapabilityDiff } from "./capability-diff.ts";
import type { C2Inspect, C2UninstallResult, C2VerifyResult } from "../../c2store/lifecycle.ts";
import type { C2InstallResult } from "../../c2store/install.ts";
import type { Context } from "../../core/context.ts";

const counted = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function contributionLine(c: Record<string, number>): string {
  const parts = Object.entries(c).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
  return parts.length ? parts.join(", ") : "none";
}

/** Install/update summary; notices (runtime.requires_trust) go to stderr. */
export function describeC2Install(ctx: Context, r: C2InstallResult): string {
  for (const n of r.notices) ctx.log.warn(`[${n.code}] ${n.message}`);
  const head: Record<C2InstallResult["status"], string> = {
    installed: `Installed C2 bundle ${r.name} ${r.version} as ${r.id} (${r.files} files, ${formatBytes(r.total_bytes)}).`,
    updated: `Updated C2 bundle ${r.name} ${r.previous_version} -> ${r.version} (${r.id}); enabled and trusted are unchanged.`,
    unchanged: `C2 bundle ${r.name} ${r.version} (${r.id}) is already installed with the same content; nothing to do.`,
    would_install: `[dry-run] Would install C2 bundle ${r.name} ${r.version} as ${r.id} (${r.files} files, ${formatBytes(r.total_bytes)}).`,
    would_update: `[dry-run] Would update C2 bundle ${r.name} ${r.previous_version} -> ${r.version} (${r.id}).`,
  };
  const lines = [
    head[r.status],
    `  source:        ${r.source.display}`,
    `  contributions: ${contributionLine(r.contributions)}`,
    `  enabled: ${r.enabled ? "yes" : "no"}, trusted: ${r.trusted ? "yes" : "no"}`,
  ];
  for (const d of r.diagnostics.filter((d) => d.severity === "warning" && d.code !== "runtime.requires_trust")) lines.push(`  warning [${d.code}] ${d.path}: ${d.message}`);
  if (r.capabilityDiff) lines.push(...describeCapabilityDiff(r.capabilityDiff));
  return lines.join("\n");
}

export function describeC2Uninstall(r: C2UninstallResult): string {
  const lines = [
    r.status === "would_uninstall"
      ? `[dry-run] Would uninstall C2 bundle ${r.name} ${r.version} (${r.id}), removing ${r.bundle_dir}${r.data_kept ? "" : ` and ${r.data_dir}`}.`
      : `Uninstalled C2 bundle ${r.name} ${r.version} (${r.id})${r.data_kept ? `; its data was kept in ${r.data_dir}` : ", with its data"}.`,
  ];
  if (r.policy_forgotten) lines.push("  Its user and project policy was forgotten.");
  for (const n of r.notices) lines.push(`  note: ${n.message}`);
  return lines.join("\n");
}

export function describeC2Inspect(r: C2Inspect): string {
  const lines = [
    `${r.name} ${r.version}  (${r.id})  C2 bundle`,
    `  enabled:   ${r.enabled ? "yes" : "no"}    trusted: ${r.trust_state === "needs_retrust" ? "needs re-trust (an upgrade changed its capabilities; gjc plugin trust again)" : r.trusted ? "yes" : "no"}${r.quarantine ? `    QUARANTINED (${r.quarantine.reason})` : ""}`,
    `  policy:    ${r.policy.state} (${r.policy.source})`,
    `  source:    ${r.source}`,
    `  installed: ${r.installed_at} (updated ${r.updated_at})`,
    `  bundle:    ${r.bundle_dir} (${counted(r.files, "file")}, ${formatBytes(r.total_bytes)})`,
    `  data:      ${r.data_dir}`,
    `  pass-env:  ${r.passEnv.length > 0 ? r.passEnv.join(", ") : "(none: only the allow-list of host variables)"}`,
    `  runtime:   ${r.runtime ? `${r.runtime.command} ${r.runtime.args.join(" ")} (scopes ${r.runtime.scopeSupport.join("+")})` : "none (data-only)"}`,
    `  contributions (${r.total_contributions}): ${contributionLine(r.contributions)}`,
  ];
  if (r.components.length) {
    lines.push("  components:");
    for (const c of r.components) lines.push(`    ${c.effective_status.padEnd(14)} ${c.kind} ${c.name}`);
  }
  if (r.language_servers.length) {
    lines.push("  language servers (gjc extension: ${PLUGIN_ROOT}, ${PLUGIN_DATA}, ${PLUGIN_PROJECT_DIR} are expanded in args/env and exported):");
    for (const l of r.language_servers) {
      const env = Object.entries(l.launch.env).map(([k, v]) => `${k}=${v}`).join(" ");
      lines.push(`    ${l.server} (${l.languages.join(", ")}): ${[l.launch.command, ...l.launch.args].join(" ")}${env ? `  env ${env}` : ""}`);
    }
  }
  if (r.diagnostics_list.length) {
    lines.push("  diagnostics:");
    for (const d of r.diagnostics_list) lines.push(`    ${d.severity} [${d.code}] ${d.path}: ${d.message}`);
  }
  if (r.quarantine) lines.push(`  quarantine: ${r.quarantine.files.slice(0, 10).join(", ")} (${r.quarantine.at}); reinstall or fix, then gjc plugin verify`);
  return lines.join("\n");
}

export function describeC2Verify(r: C2VerifyResult): string {
  const lines: string[] = [];
  for (const b of r.bundles) {
    if (b.ok) lines.push(`ok          ${b.name} (${b.id}) [c2]`);
    else {
      lines.push(`quarantined ${b.name} (${b.id}) [c2]: ${counted(b.problems.length, "problem")} (runtime_mismatch)`);
      for (const f of b.problems.slice(0, 20)) lines.push(`  ${f.kind}: ${f.path}`);
    }
  }
  if (r.bundles.length === 0) lines.push("No C2 bundles installed.");
  return lines.join("\n");
}
