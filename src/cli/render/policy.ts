/** Human text of `gjc plugin policy plan`, `apply` and `reset`. */
import type { ApplyResult, PlanImpact, ResetResult, ScopeRef } from "../../c2store/policy-plane.ts";
import type { Style } from "../../core/style.ts";

function scopeText(scope: ScopeRef): string {
  return scope.kind === "user" ? "user scope" : `project ${scope.project_path}`;
}

export function describePolicyPlan(plan: PlanImpact, s: Style): string {
  const target = plan.request.component ?? plan.request.plugin;
  const scope = scopeText(plan.scope);
  const lines = [
    `Plan for ${s.bold(target)} in the ${scope}: state ${plan.request.state}${"config" in plan.request ? `, config ${JSON.stringify(plan.request.config)}` : ""}`,
    plan.noop ? "  This changes nothing (the policy already says so)." : `  state: ${plan.before.state} → ${plan.after.state}`,
  ];
  if (JSON.stringify(plan.before.config) !== JSON.stringify(plan.after.config)) lines.push(`  config: ${JSON.stringify(plan.before.config)} → ${JSON.stringify(plan.after.config)}`);
  for (const [c, v] of Object.entries(plan.after.components)) if (plan.before.components[c] !== v) lines.push(`  ${c}: ${plan.before.components[c] ?? "enabled"} → ${v}`);
  for (const r of plan.active_resources) lines.push(`  stops: ${r.label} (${r.kind} ${r.id})`);
  if (plan.trust_block !== null) lines.push(`  cannot settle: the bundle ${plan.trust_block === "untrusted" ? "is not trusted" : "needs re-trust (its capabilities changed since it was trusted)"}; applying rolls back`);
  else if (!plan.settles) lines.push(`  cannot settle: the runtime would stay pending (this host lacks ${plan.missing.join(", ")}); applying rolls back`);
  lines.push(`  bound to config revision ${plan.config_revision}, graph ${plan.graph_revision}; expires ${plan.expires_at}`);
  lines.push("", `Apply with: gjc plugin policy apply ${plan.token}`);
  return lines.join("\n");
}

export function describePolicyApply(result: ApplyResult): string {
  return `${result.changed ? "Applied" : "Nothing to change"}: ${result.affected.join(", ")} is ${result.effective.state} in the ${scopeText(result.scope)} (config revision ${result.config_revision}).`;
}

export function describePolicyReset(result: ResetResult): string {
  const lines = [`${result.plugin} now inherits everything in the ${scopeText(result.scope)} (config revision ${result.config_revision}).`];
  if (result.recovery_before.kind !== "normal") {
    lines.push(`The policy left ${result.recovery_before.kind.replace(/_/g, " ")}.${result.evidence ? ` The unusable file was kept as ${result.evidence}.` : ""}`);
  }
  return lines.join("\n");
}
