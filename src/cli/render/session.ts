/** Human text of `gjc plugin session` (the GJC session plan); `--json` prints gjc/session@1. */
import type { Style } from "../../core/style.ts";
import type { SessionDiagnostic } from "../../gjcsession/diagnostics.ts";
import type { SessionResult } from "../../gjcsession/session.ts";

function renderDiagnostic(d: SessionDiagnostic, s: Style): string {
  const label = d.severity === "error" ? s.red("error") : s.yellow("warning");
  const where = [d.bundle ? `${d.bundle}${d.scope ? ` (${d.scope})` : ""}` : d.scope, d.surfaceId]
    .filter(Boolean)
    .join(" ");
  const lines = [`  ${label} ${s.dim(`[${d.code}]`)} ${where ? `${where}: ` : ""}${d.message}`];
  if (d.hint) lines.push(`      ${s.cyan("hint")}: ${d.hint}`);
  return lines.join("\n");
}

export function describeSession(r: SessionResult, s: Style, c2Installed = false): string {
  const p = r.plan;
  const lines = [`${s.bold("GJC session plan")} ${s.dim(`project ${p.projectDir}`)}`];
  if (p.bundles.length === 0)
    lines.push(
      c2Installed
        ? "  no GJC bundle installed (C2 bundles are: gjc plugin session --family c2)"
        : "  no GJC bundle installed",
    );
  for (const b of p.bundles) {
    const base =
      b.status === "active"
        ? s.green("active")
        : b.status === "disabled"
          ? s.dim("disabled")
          : b.status === "excluded"
            ? s.yellow("excluded")
            : s.red("quarantined");
    // A disabled bundle can be quarantined too: both are shown.
    const tag = b.status === "disabled" && b.quarantined ? `${base}, ${s.red("quarantined")}` : base;
    const active = b.surfaces.filter((x) => x.status === "active").length;
    const why =
      b.status === "active"
        ? ` — ${active}/${b.surfaces.length} surfaces active`
        : b.collision
          ? ` — collides with ${b.collision.with.join(", ")} on ${b.collision.surfaceIds.join(", ")}`
          : "";
    lines.push(`  ${tag} ${b.name}@${b.version} (${b.scope})${why}`);
  }
  const agentBlocks = Object.values(p.agentAppendices).filter((t) => t !== "").length;
  const adverts = [...Object.entries(p.advertisements.skills), ...Object.entries(p.advertisements.agents)]
    .filter(([, t]) => t !== "")
    .map(([k]) => k);
  lines.push(
    `  ${s.dim("tools")} ${p.tools.length}  ${s.dim("hooks")} ${p.hooks.length}  ${s.dim("mcp servers")} ${p.mcpServers.length}  ${s.dim("sub-skills")} ${p.subskills.length}`,
    `  ${s.dim("system appendix")} ${p.systemAppendix === "" ? "none" : `${Buffer.byteLength(p.systemAppendix)} bytes`}  ${s.dim("agent appendices")} ${agentBlocks}  ${s.dim("advertised parents")} ${adverts.length ? adverts.join(", ") : "none"}`,
  );
  if (r.runtimeCheck) {
    const c = r.runtimeCheck;
    const cached = r.runtimeCheckCached ?? 0;
    lines.push(
      `  ${s.dim("runtime check")} ${c.checked} module(s)${cached > 0 ? ` (${cached} by earlier verdicts for the same content)` : ""}, ${c.failed === 0 ? s.green("all passed") : s.red(`${c.failed} failed`)}`,
    );
  }
  if (p.diagnostics.length > 0) {
    lines.push("", "Findings:");
    for (const d of p.diagnostics) lines.push(renderDiagnostic(d, s));
  }
  return lines.join("\n");
}
