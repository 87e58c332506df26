/** Human text of `gjc plugin policy plan`, `apply` and `reset`. */
import type { ApplyResult, PlanImpact, ResetResult, ScopeRef } from "../../c2store/policy-plane.ts";
import type { Style } from "../../core/style.ts";

function scopeText(scope: ScopeRef): string {
  return scope.kind === "user" ? "user scope" : `project ${scope.projectPath}`;
}

export function describePolicyPlan(plan: PlanImpact, s: Style): string {
  const target = plan.request.component ?? plan.request.plugin;
  const scope = scopeText(plan.scope);
  const lines = [
    `Plan for ${s.bold(target)} in the ${scope}: state ${plan.request.state}${"config" in plan.request ? `, config ${JSON.stringify(plan.request.config)}` : ""}`,
    plan.noop
      ? "  This changes nothing (the policy already says so)."
      : `  state: ${plan.before.state} → ${plan.after.state}`,
  ];
  if (!Bun.deepEquals(plan.before.config, plan.after.config))
    lines.push(`  config: ${JSON.stringify(plan.before.config)} → ${JSON.stringify(plan.after.config)}`);
  for (const [c, v] of Object.entries(plan.after.components))
    if (plan.before.components[c] !== v) lines.push(`  ${c}: ${plan.before.components[c] ?? "enabled"} → ${v}`);
  for (const r of plan.activeResources) lines.push(`  stops: ${r.label} (${r.kind} ${r.id})`);
  if (plan.trustBlock !== null)
    lines.push(
      `  cannot settle: the bundle ${plan.trustBlock === "untrusted" ? "is not trusted" : "needs re-trust (its capabilities changed since it was trusted)"}; applying rolls back`,
    );
  else if (!plan.settles)
    lines.push(
      `  cannot settle: the runtime would stay pending (this host lacks ${plan.missingServices.join(", ")}); applying rolls back`,
    );
  lines.push(
    `  bound to config revision ${plan.configRevision}, graph ${plan.graphRevision}; expires ${plan.expiresAt}`,
  );
  lines.push("", `Apply with: gjc plugin policy apply ${plan.token}`);
  return lines.join("\n");
}

export function describePolicyApply(result: ApplyResult): string {
  return `${result.changed ? "Applied" : "Nothing to change"}: ${result.affected.join(", ")} is ${result.effective.state} in the ${scopeText(result.scope)} (config revision ${result.configRevision}).`;
}

export function describePolicyReset(result: ResetResult): string {
  const lines = [
    `${result.plugin} now inherits everything in the ${scopeText(result.scope)} (config revision ${result.configRevision}).`,
  ];
  if (result.recoveryBefore.kind !== "normal") {
    lines.push(
      `The policy left ${result.recoveryBefore.kind.replace(/-/g, " ")}.${result.evidence ? ` The unusable file was kept as ${result.evidence}.` : ""}`,
    );
  }
  return lines.join("\n");
}
