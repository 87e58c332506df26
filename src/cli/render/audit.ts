import type { AuditReport, GatedAudit } from "../../audit/audit.ts";
import type { Style } from "../../core/style.ts";
import { formatBytes } from "../../bundle/collect.ts";
import { describeCapabilityDiff } from "./capability-diff.ts";
import { moreLine } from "./more-line.ts";
import { describeGrantSet, processLabel } from "./grants.ts";

/** Long lists (a bundle may declare thousands of tools) show their first entries; --json has all. */
const SHOWN = 25;
function capped<T>(items: T[], line: (x: T) => string[], out: string[], s: Style): void {
  for (let i = 0; i < items.length && i < SHOWN; i++) out.push(...line(items[i]));
  if (items.length > SHOWN) out.push(`    ${moreLine(items.length - SHOWN, s)}`);
}

const quoteArg = (a: string) => (/^[A-Za-z0-9_./:=@${}+,-]+$/.test(a) ? a : JSON.stringify(a));

/** The human audit: what the bundle can do, surface by surface, then the findings. */
export function describeAudit(r: AuditReport, s: Style): string {
  const m = r.capabilities;
  const lines: string[] = [];
  const where =
    r.subject.kind === "source" ? `from ${r.subject.display} (not installed)` : `installed: ${r.subject.display}`;
  lines.push(`${s.bold(`${m.name} ${m.version}`)} [${m.family}] ${where}`);
  lines.push(
    `  ${s.dim("content")} ${r.subject.integrity}${r.subject.commit ? ` ${s.dim("commit")} ${r.subject.commit}` : ""}`,
  );
  const signer = r.signature.signer;
  lines.push(
    `  ${s.dim("signed")} ${signer ? `${signer.identity !== undefined ? `${signer.identity} ` : ""}${signer.fingerprint}${r.signature.status === "unknown-signer" ? " (unknown key)" : ""}` : "no"}`,
  );
  lines.push(`  ${s.dim("files")} ${m.files.count} (${formatBytes(m.files.bytes)})`);
  lines.push(`  ${s.dim("processes")} ${m.processes.length}`);
  // Started processes first: they are what trust is about; modules the agent loads after.
  const started = m.processes.filter((p) => p.hostEnvironment !== "agent");
  const modules = m.processes.filter((p) => p.hostEnvironment === "agent");
  capped(
    started,
    (p) => [
      `    ${p.id}: ${[p.command, ...p.args].map(quoteArg).join(" ")}${p.commandInBundle ? "" : s.dim(" (program from PATH)")}`,
      `      ${s.dim(`cwd ${p.cwd} · environment ${p.hostEnvironment}`)}`,
    ],
    lines,
    s,
  );
  capped(modules, (p) => [`    ${p.id}: ${p.script}${s.dim(" (loaded by the GJC agent)")}`], lines, s);
  lines.push(`  ${s.dim("network endpoints")} ${m.endpoints.length}`);
  capped(
    m.endpoints,
    (e) => [
      `    ${e.id}: ${e.transport} ${e.url} (host ${e.host})${e.headers.length ? ` headers ${e.headers.join(", ")}` : ""}`,
    ],
    lines,
    s,
  );
  lines.push(`  ${s.dim("environment")} ${m.env.length}`);
  capped(
    m.env,
    (v) => [`    ${v.owner}: ${v.mode === "passes" ? `${v.name} <- $${v.from}` : `${v.name} (set by the bundle)`}`],
    lines,
    s,
  );
  lines.push(`  ${s.dim("hooks")} ${m.hooks.length}`);
  capped(
    m.hooks,
    (h) => [
      `    ${h.id}: ${h.event}${h.target ? ` ${h.target}` : ""}${h.phase ? ` (${h.phase})` : ""}${h.supported ? "" : s.dim(" (inventoried, never run)")}`,
    ],
    lines,
    s,
  );
  lines.push(`  ${s.dim("host commands and services")} ${m.hostCommands.length}`);
  capped(
    m.hostCommands,
    (h) =>
      h.kind === "command"
        ? [
            `    command ${h.name}: ${h.title ?? ""}${h.description ? ` — ${h.description}` : ""}`,
            `      args ${h.argsSchema == null ? "(no argsSchema)" : JSON.stringify(h.argsSchema)}`,
          ]
        : [`    ${h.kind} ${h.name}`],
    lines,
    s,
  );
  lines.push(`  ${s.dim("prompt text")} ${m.prompts.length} (${formatBytes(m.promptBytes)})`);
  capped(m.prompts, (p) => [`    ${p.id}: ${formatBytes(p.bytes)} ${s.dim(p.sha256.slice(0, 19))}`], lines, s);
  if (r.grants) {
    const g = r.grants;
    if (g.state === "foreign")
      lines.push(`  ${s.dim("sandbox grants")} none apply (the grants file was not written by gjc for you)`);
    else {
      lines.push(`  ${s.dim("sandbox grants")} ${describeGrantSet(g.bundle)}`);
      for (const p of g.processes) lines.push(`    ${processLabel(p.process)}: ${describeGrantSet(p.grants)}`);
    }
  }
  if (r.capabilityDiff && r.against) {
    lines.push(`Against the installed ${r.against.display}:`);
    lines.push(...describeCapabilityDiff(r.capabilityDiff));
  }
  if (r.findings.length === 0) lines.push(s.green("No findings."));
  else {
    lines.push(`Findings: ${r.counts.error} error, ${r.counts.warning} warning, ${r.counts.note} note`);
    for (const f of r.findings) {
      const label = f.level === "error" ? s.red("error") : f.level === "warning" ? s.yellow("warning") : s.cyan("note");
      lines.push(`  ${label} ${s.dim(`[${f.ruleId}]`)} ${f.at.file}:${f.region.line}:${f.region.column}: ${f.message}`);
      lines.push(`      ${s.cyan("hint")}: ${f.hint}`);
    }
  }
  return lines.join("\n");
}

/** The human audit and, when `--fail-on` matched, how many findings did. */
export function describeGatedAudit(r: GatedAudit, s: Style): string {
  return (
    describeAudit(r, s) +
    (r.failing > 0 ? `\n${r.failing} finding${r.failing === 1 ? "" : "s"} match --fail-on ${r.failOn}.` : "")
  );
}
