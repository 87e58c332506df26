/** Human text of `gjc plugin session --family c2`. */
import type { C2SessionDocument } from "../../c2session/document.ts";
import type { Style } from "../../core/style.ts";

export function describeC2Session(s: Style, d: C2SessionDocument): string {
  const lines = [`${s.bold("C2 session content")} ${s.dim(`project ${d.projectDir} (content is user-wide)`)}`];
  if (d.bundles.length === 0) lines.push("  no C2 bundle installed");
  for (const b of d.bundles) {
    const tag =
      b.status === "active"
        ? s.green("active")
        : b.status === "disabled"
          ? s.dim("disabled")
          : b.status === "foreign"
            ? s.dim("foreign (C2 app)")
            : s.red("quarantined");
    lines.push(`  ${tag} ${b.name}@${b.version}${b.reasons.length ? s.dim(` — ${b.reasons[0].message}`) : ""}`);
  }
  lines.push(
    `  ${s.dim("skills")} ${d.skills.length}  ${s.dim("subagents")} ${d.subagents.length}  ${s.dim("prompt commands")} ${d.promptCommands.length}  ${s.dim("mcp servers")} ${d.mcpServers.length}`,
  );
  for (const x of [...d.skills, ...d.subagents, ...d.promptCommands]) lines.push(`    ${x.id}  ${x.name}`);
  for (const m of d.mcpServers) lines.push(`    ${m.id}  ${m.server} (${m.transport}, ${m.status})`);
  return lines.join("\n");
}
