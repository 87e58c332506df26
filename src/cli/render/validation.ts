import type { Diagnostic } from "../../core/diagnostics.ts";
import { ExitCode, type ExitCodeValue } from "../../core/exit-codes.ts";
import type { Style } from "../../core/style.ts";
import { UNSUPPORTED_KINDS } from "../../families/c2/rules.ts";
import type { ValidationReport } from "../../families/types.ts";
import type { VerbOutcome } from "../define-verb.ts";
import { moreLine } from "./more-line.ts";

const count = (diagnostics: Diagnostic[], severity: Diagnostic["severity"]): number =>
  diagnostics.filter((d) => d.severity === severity).length;

/** validate's outcome: exit 0 when valid (warnings allowed unless strict), else 1. */
export function validationOutcome(report: ValidationReport, strict: boolean, style: Style): VerbOutcome {
  const warnings = count(report.diagnostics, "warning");
  const errors = count(report.diagnostics, "error");
  const ok = errors === 0 && (!strict || warnings === 0);
  const exit: ExitCodeValue = ok ? ExitCode.ok : ExitCode.failed;
  return {
    json: { schema: "gjc/validate@1", ...report, ok, strict },
    human: renderValidation({ ...report, ok }, strict, style),
    exit,
  };
}

export function renderDiagnostic(d: Diagnostic, style: Style): string {
  const label = d.severity === "error" ? style.red("error") : style.yellow("warning");
  const lines = [`  ${label} ${style.dim(`[${d.code}]`)} ${d.path}: ${d.message}`];
  if (d.hint) lines.push(`      ${style.cyan("hint")}: ${d.hint}`);
  return lines.join("\n");
}

/** Human output shows this many findings of one code; the rest are counted. */
const SHOWN_PER_CODE = 10;

function renderValidation(r: ValidationReport, strict: boolean, s: Style): string {
  const lines: string[] = [];
  const title = r.family === "catalog" ? "catalog" : `${r.family} bundle`;
  const who = r.name ? `${r.name}${r.version ? ` ${r.version}` : ""}` : r.target;
  lines.push(`${r.ok ? s.green("✓ valid") : s.red("✗ invalid")} ${title} ${s.bold(who)}`);
  lines.push(`  ${s.dim("path")} ${r.target}`);
  if (r.contributions) {
    const counts: string[] = [];
    const stored: string[] = [];
    let total = 0;
    for (const [kind, n] of Object.entries(r.contributions)) {
      if (n <= 0) continue;
      // Scenes, pipelines, hooks and monitors are kept but never run here: not "supported".
      if (r.family === "c2" && UNSUPPORTED_KINDS.includes(kind)) {
        stored.push(`${kind} ${n}`);
        continue;
      }
      total += n;
      counts.push(`${kind} ${n}`);
    }
    lines.push(`  ${s.dim("contributions")} ${total}${counts.length ? ` (${counts.join(", ")})` : ""}`);
    if (stored.length) lines.push(`  ${s.dim("stored, not supported on this host:")} ${stored.join(", ")}`);
  }
  if (r.components?.length) {
    lines.push(`  ${s.dim("components")}`);
    for (const c of r.components) lines.push(`    ${c.kind} ${c.name} — ${c.status}`);
  }
  if (r.commands?.length) {
    lines.push(`  ${s.dim("commands")}`);
    for (const c of r.commands)
      lines.push(
        `    ${c.id} — ${c.title}${c.description ? `: ${c.description}` : ""} ${s.dim(c.argsSchema === null ? "(no argsSchema)" : `args ${JSON.stringify(c.argsSchema)}`)}`,
      );
  }
  if (r.surfaces) {
    lines.push(`  ${s.dim("surfaces")} ${r.surfaces.length}`);
    for (const x of r.surfaces) lines.push(`    ${x.id}${x.enabledByDefault ? "" : s.dim(" (disabled by default)")}`);
  }
  if (r.files) {
    let bytes = 0;
    for (const f of r.files) bytes += f.bytes;
    lines.push(`  ${s.dim("files")} ${r.files.length} (${bytes} bytes)`);
    if (r.family === "gjc")
      for (const f of r.files) lines.push(`    ${f.path} ${s.dim(`${f.bytes} B sha256:${f.sha256.slice(0, 12)}…`)}`);
  }
  if (r.entries) {
    lines.push(`  ${s.dim("entries")} ${r.entries.length}`);
    for (const e of r.entries)
      lines.push(
        `    ${e.ok ? s.green("✓") : s.red("✗")} ${e.name ?? `#${e.index}`} ${e.version ?? ""} ${s.dim(e.source ?? "")}`,
      );
  }
  const errors = count(r.diagnostics, "error");
  const warnings = r.diagnostics.length - errors;
  if (r.diagnostics.length > 0) {
    lines.push(
      "",
      `${errors} error(s), ${warnings} warning(s)${strict && warnings > 0 ? " (warnings fail under --strict)" : ""}:`,
    );
    // A bundle of thousands of bad names gives thousands of findings of one code: a few show
    // what is wrong, a count says how many more (exact, all of them, in --json).
    const shown = new Map<string, number>();
    for (const d of r.diagnostics) {
      const n = (shown.get(d.code) ?? 0) + 1;
      shown.set(d.code, n);
      if (n <= SHOWN_PER_CODE) lines.push(renderDiagnostic(d, s));
    }
    for (const [code, n] of shown)
      if (n > SHOWN_PER_CODE) lines.push(`  ${moreLine(n - SHOWN_PER_CODE, s, ` [${code}]`)}`);
    lines.push(`  ${s.cyan("see")}: gjc explain <code> (the code in brackets) for what it means and how to fix it`);
  }
  return `${lines.join("\n")}\n`;
}
