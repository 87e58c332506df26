/**
 * Human text of the store verbs (install, upgrade, uninstall, enable, disable, inspect, verify,
 * doctor; list's is in ./list.ts) for both families, from the same documents `--json` prints.
 * Warnings go to stderr; everything else is the verb's stdout.
 */
import { formatBytes } from "../../bundle/collect.ts";
import { describeGrantSet, processLabel } from "./grants.ts";
import type { InstallCapabilityDiff } from "../../store/install-diff.ts";
import type { Context } from "../../core/context.ts";
import { describeCapabilityDiff } from "./capability-diff.ts";
import type {
  DoctorResult,
  EnablementResult,
  ForeignBundle,
  InspectBundle,
  InstallResult,
  UninstallResult,
} from "../../store/documents.ts";
import type { VerifyReport } from "../../app/verify.ts";
import { describePinChecks } from "./mcp-pins.ts";
import { contributionLine, counted, signerLine, stateOf } from "./list.ts";

const where = (r: { family: string; scope: string }) => (r.family === "c2" ? "the C2 store" : `the ${r.scope} scope`);
const label = (r: { family: string; name: string; c2?: { id: string } }) =>
  r.c2 ? `C2 bundle ${r.name} (${r.c2.id})` : r.name;

/** Warnings of any store document, on stderr. */
export function logWarnings(ctx: Context, warnings: { code: string; path: string; message: string }[]): void {
  for (const w of warnings) ctx.log.warn(`[${w.code}] ${w.path ? `${w.path}: ` : ""}${w.message}`);
}

export function describeInstall(ctx: Context, r: InstallResult, verb = "install"): string {
  logWarnings(ctx, r.warnings);
  const at = where(r);
  const name = label(r);
  const size = `${counted(r.files, "file")}, ${formatBytes(r.bytes)}`;
  const head: Record<string, string> = {
    installed: `Installed ${name} ${r.version} into ${at} (${size}).`,
    updated: `Updated ${name} ${r.previousVersion} -> ${r.version} in ${at}.`,
    repaired: `Reinstalled ${name} ${r.version} in ${at}: the installed copy was damaged or quarantined and is whole again.`,
    unchanged: `${name} ${r.version} is already installed with the same content (${at}); nothing to do.`,
    "would-install": `[dry-run] Would ${verb} ${name} ${r.version} into ${at} (${size}).`,
    "would-update": `[dry-run] Would update ${name} ${r.previousVersion} -> ${r.version} in ${at}.`,
    "would-repair": `[dry-run] Would reinstall ${name} ${r.version} in ${at} to repair the installed copy.`,
  };
  const lines = [head[r.status]];
  if (r.gjc && r.status !== "unchanged") {
    const s = r.gjc.surfaces;
    for (const id of s.added) lines.push(`  + ${id}`);
    for (const id of s.removed) lines.push(`  - ${id}`);
    if (r.previousVersion !== undefined && s.kept.length) lines.push(`  = ${counted(s.kept.length, "surface")} kept`);
  }
  if (r.c2) {
    lines.push(`  source:        ${r.source.display}`);
    lines.push(`  contributions: ${contributionLine(r.c2.contributions)}`);
    lines.push(`  enabled: ${r.enabled ? "yes" : "no"}, trusted: ${r.c2.trusted ? "yes" : "no"}`);
    for (const d of r.c2.diagnostics.filter((d) => d.severity === "warning" && d.code !== "runtime.requires_trust"))
      lines.push(`  warning [${d.code}] ${d.path}: ${d.message}`);
  }
  if (r.signature?.signer) lines.push(`  signed by:     ${signerLine(r.signature.signer)}`);
  if (r.capabilityDiff) lines.push(...describeCapabilityDiff(r.capabilityDiff as unknown as InstallCapabilityDiff));
  if (r.releaseLog)
    lines.push(
      `  release log:   ${r.releaseLog.origin}, release ${r.releaseLog.index + 1} of ${r.releaseLog.size}${r.releaseLog.firstSeen ? " (first checkpoint seen from this log: remembered from now on)" : ", consistent with the checkpoint seen before"}`,
    );
  return lines.join("\n");
}

export function describeUninstall(ctx: Context, r: UninstallResult): string {
  logWarnings(ctx, r.warnings);
  const name = label(r);
  if (r.status === "would-uninstall") {
    const data = r.c2 && !r.c2.dataKept ? ` and its data ${r.c2.dataDir}` : "";
    const keep = r.gjc?.unowned.length
      ? [
          `  and keep ${counted(r.gjc.unowned.length, "item")} it did not install: ${r.gjc.unowned.slice(0, 5).join(", ")}`,
        ]
      : [];
    return [
      `[dry-run] Would uninstall ${name} ${r.version} from ${where(r)}, removing ${counted(r.files.length, "file")}${data}:`,
      ...r.files.map((f) => `  ${f}`),
      ...keep,
    ].join("\n");
  }
  const lines = [`Uninstalled ${name} ${r.version} from ${where(r)} (${counted(r.files.length, "file")} removed).`];
  if (r.c2) lines.push(r.c2.dataKept ? `  Its data was kept in ${r.c2.dataDir}.` : "  Its data was removed with it.");
  if (r.c2?.policyForgotten) lines.push("  Its user and project policy was forgotten.");
  if (r.gjc?.keptIn !== undefined)
    lines.push(
      `  Kept ${counted(r.gjc.unowned.length, "item")} the bundle did not install, in ${r.gjc.keptIn}: ${r.gjc.unowned.slice(0, 5).join(", ")}${r.gjc.unowned.length > 5 ? ", …" : ""}`,
    );
  else if (r.gjc?.unowned.length)
    lines.push(
      `  also removed ${r.gjc.unowned.length} item(s) that appeared while it was uninstalled: ${r.gjc.unowned.slice(0, 5).join(", ")}`,
    );
  return lines.join("\n");
}

export function describeEnablement(ctx: Context, r: EnablementResult, op: "enable" | "disable"): string {
  logWarnings(ctx, r.warnings);
  const what = r.surface ? `Surface ${r.surface} of ${r.name}` : label(r);
  const trust = r.c2 ? ` (trusted: ${r.c2.trusted ? "yes" : "no"})` : "";
  return r.changed
    ? `${what} is now ${op}d in ${where(r)}${trust}.`
    : `${what} was already ${op}d in ${where(r)}; nothing changed.`;
}

/** `inspect` of a bundle another program installed: what its record says. */
export function describeForeign(f: ForeignBundle): string {
  const lines = [
    `${f.writer === "c2-app" ? `${f.name} ${f.version}` : f.id}  C2 bundle installed by ${f.writer === "c2-app" ? "the C2 app" : "another program"} (read-only)`,
  ];
  if (f.description) lines.push(`  about:     ${f.description}`);
  if (f.source) lines.push(`  source:    ${f.source}${f.repository ? ` (${f.repository})` : ""}`);
  if (f.enabled !== undefined)
    lines.push(
      `  state:     ${f.enabled ? "enabled" : "disabled"}, ${f.trusted ? "trusted" : "not trusted"} (as the C2 app set them)`,
    );
  lines.push(`  location:  ${f.path}`);
  lines.push(`  record:    schema ${f.schemaVersion}; ${f.problem}.`);
  return lines.join("\n");
}

export function describeInspect(b: InspectBundle): string {
  const lines = [`${b.name} ${b.version}  ${b.c2 ? `(${b.c2.id})  C2 bundle` : `[${b.scope}]`} ${stateOf(b)}`];
  lines.push(
    `  source:    ${b.source.display} (${b.source.kind}${b.source.resolvedAt ? `, fetched ${b.source.resolvedAt}` : ""})`,
  );
  if (b.source.sha) lines.push(`  commit:    ${b.source.sha}`);
  if (b.source.sha256) lines.push(`  archive:   sha256 ${b.source.sha256}`);
  lines.push(`  installed: ${b.installedAt} (updated ${b.updatedAt})`);
  if (b.signer) lines.push(`  signed by: ${signerLine(b.signer)}`);
  lines.push(`  location:  ${b.root} (${counted(b.files.length, "file")}, ${formatBytes(b.bytes)})`);
  if (b.grants) lines.push(...grantLines(b.grants));
  if (b.gjc) {
    lines.push(`  manifest:  sha256 ${b.gjc.manifestHash}`);
    lines.push(`  surfaces (${b.gjc.surfaces.length}):`);
    for (const s of b.gjc.surfaces)
      lines.push(`    ${s.state.padEnd(11)} ${s.id}${s.quarantine ? ` (${s.quarantine})` : ""}`);
    lines.push(`  files (${b.files.length}):`);
    for (const f of b.files)
      lines.push(`    ${f.mode.toString(8)} ${f.sha256.slice(0, 12)} ${String(f.bytes).padStart(9)}  ${f.path}`);
    for (const q of b.gjc.quarantine)
      lines.push(`  quarantine: ${q.surfaceId} ${q.code}: ${q.message} (${q.detectedAt})`);
  }
  if (b.c2) {
    const c2 = b.c2;
    const runtime = c2.runtime as { command?: string; args?: string[]; scopeSupport?: string[] } | null;
    const trust =
      c2.trustState === "needs-retrust"
        ? "needs re-trust (an upgrade changed its capabilities; gjc plugin trust again)"
        : c2.trusted
          ? "yes"
          : "no";
    lines.push(
      `  enabled:   ${b.enabled ? "yes" : "no"}    trusted: ${trust}    policy: ${c2.policy.state} (${c2.policy.source})`,
    );
    lines.push(`  data:      ${c2.dataDir}`);
    lines.push(
      `  pass-env:  ${c2.passEnv.length > 0 ? c2.passEnv.join(", ") : "(none: only the allow-list of host variables)"}`,
    );
    lines.push(
      `  runtime:   ${runtime ? `${runtime.command} ${(runtime.args ?? []).join(" ")} (scopes ${(runtime.scopeSupport ?? []).join("+")})` : "none (data-only)"}`,
    );
    lines.push(`  contributions (${c2.totalContributions}): ${contributionLine(c2.contributions)}`);
    if (c2.components.length) {
      lines.push("  components:");
      for (const c of c2.components) lines.push(`    ${c.effectiveStatus.padEnd(14)} ${c.kind} ${c.name}`);
    }
    if (c2.commands.length) {
      lines.push("  commands:");
      for (const c of c2.commands) {
        lines.push(`    ${c.id}  ${c.title}${c.description ? ` — ${c.description}` : ""}`);
        lines.push(`      args: ${c.argsSchema === null ? "no schema declared" : JSON.stringify(c.argsSchema)}`);
      }
    }
    if (c2.languageServers.length) {
      lines.push(
        "  language servers (args and env as declared; gjc exports PLUGIN_ROOT, PLUGIN_DATA, PLUGIN_PROJECT_DIR):",
      );
      for (const l of c2.languageServers) {
        const launch = l.launch as { command: string; args: string[]; env: Record<string, string> };
        const env = Object.entries(launch.env)
          .map(([k, v]) => `${k}=${v}`)
          .join(" ");
        lines.push(
          `    ${l.server} (${l.languages.join(", ")}): ${[launch.command, ...launch.args].join(" ")}${env ? `  env ${env}` : ""}`,
        );
      }
    }
    if (c2.diagnosticsList.length) {
      lines.push("  diagnostics:");
      for (const d of c2.diagnosticsList) lines.push(`    ${d.severity} [${d.code}] ${d.path}: ${d.message}`);
    }
    if (c2.quarantine)
      lines.push(
        `  quarantine: ${c2.quarantine.files.slice(0, 10).join(", ")} (${c2.quarantine.detectedAt}); reinstall or fix, then gjc plugin verify`,
      );
  }
  return lines.join("\n");
}

export function describeVerify(r: VerifyReport): string {
  const lines: string[] = [];
  for (const b of r.bundles) {
    const tag = b.c2 ? `[c2 ${b.c2.id}]` : `[${b.scope}]`;
    if (b.ok)
      lines.push(
        `ok          ${b.name} ${b.version} ${tag} (${counted(b.checked, "file")})${b.change === "cleared" ? " — quarantine cleared" : ""}`,
      );
    else {
      lines.push(
        `quarantined ${b.name} ${b.version} ${tag}: ${counted(b.problems.length, "problem")} (runtime_mismatch)`,
      );
      for (const p of b.problems.slice(0, 20)) lines.push(`  ${p.message}`);
      if (b.problems.length > 20) lines.push(`  …and ${b.problems.length - 20} more`);
    }
  }
  for (const p of r.problems) {
    if (p.foreign)
      lines.push(
        `foreign     ${p.family} ${p.scope} registry ${p.path}: ${p.problem}; gjc verifies nothing in it (see "gjc plugin doctor")`,
      );
    else
      lines.push(
        `damaged     ${p.family} ${p.scope} ${p.id ?? "registry"} ${p.path}: ${p.problem} — run "gjc plugin doctor --fix"`,
      );
  }
  if (r.bundles.length === 0 && r.problems.length === 0) lines.push("No bundles installed.");
  if (r.runtime) {
    for (const x of r.runtime.results)
      lines.push(
        `${x.ok ? "runtime ok " : "quarantined"} ${x.bundle} [${x.scope}] ${x.surfaceId}${x.ok ? "" : `: ${x.message} (${x.code})`}`,
      );
    // Nothing checked is said out loud, never an empty success: --runtime holds GJC tool and
    // hook modules to their declarations; C2 runtimes are judged by their handshake instead.
    if (r.runtime.checked === 0)
      lines.push(
        "runtime: no active GJC tool or hook module to check (C2 runtimes are checked by their handshake: gjc plugin test <dir>)",
      );
  }
  if (r.mcp) {
    lines.push(...describePinChecks(r.mcp.servers));
    if (r.mcp.servers.length === 0)
      lines.push("mcp: no pinned MCP servers (gjc plugin mcp probe <bundle>/<server> pins one)");
  }
  // The repair hint is for file drift and runtime quarantine; MCP drift names its own command.
  const filesOk = r.problems.length === 0 && r.bundles.every((b) => b.ok);
  if (!filesOk || (r.runtime?.failed ?? 0) > 0)
    lines.push(
      "Reinstall a quarantined bundle (gjc plugin install <source> …) to repair it; a clean verify also clears the quarantine.",
    );
  return lines.join("\n");
}

export function describeDoctor(r: DoctorResult): string {
  const lines: string[] = [];
  for (const s of r.stores) {
    const title = s.family === "c2" ? `C2 store ${s.root}` : `${s.scope} scope ${s.root}`;
    const state = s.family === "c2" ? `policy ${s.state}` : `registry ${s.state}`;
    lines.push(`${title}: ${!s.exists ? "not created yet" : `${state}, ${counted(s.bundles, "bundle")}`}`);
    for (const f of r.findings.filter((x) => x.family === s.family && x.scope === s.scope)) {
      lines.push(`  ${(f.fixed ? "fixed" : f.severity).padEnd(7)} ${f.message} (${f.path})`);
      if (!f.fixed)
        lines.push(
          `          ${r.fix || !f.fixable ? "" : "--fix would "}${f.fix}${f.command && f.command !== "gjc plugin doctor --fix" ? ` (${f.command})` : ""}`,
        );
    }
  }
  if (r.sandbox) lines.push(...describeSandbox(r.sandbox));
  lines.push(
    r.ok
      ? "No problems found."
      : r.fix
        ? "Some problems need you (see above)."
        : 'Run "gjc plugin doctor --fix" to repair what can be repaired safely.',
  );
  return lines.join("\n");
}

/** The sandbox grants lines of inspect: what the bundle's processes may touch beyond the default profile. */
function grantLines(g: NonNullable<InspectBundle["grants"]>): string[] {
  if (g.state === "foreign")
    return [
      "  grants:    none apply (its grants file was not written by gjc for you; gjc plugin permissions shows it)",
    ];
  const lines = [
    `  grants:    ${describeGrantSet(g.bundle)}${g.processes.length ? "" : " (default sandbox profile otherwise)"}`,
  ];
  for (const p of g.processes) lines.push(`    ${processLabel(p.process)}: ${describeGrantSet(p.grants)}`);
  return lines;
}

function describeSandbox(s: NonNullable<DoctorResult["sandbox"]>): string[] {
  const on = (b: boolean) => (b ? "active" : "missing");
  const lines = [
    `Plugin sandbox: ${s.mode === "off" ? "OFF (GJC_SANDBOX=off: plugin processes run unconfined)" : s.enforced ? `enforced${s.mode === "require" ? " (GJC_SANDBOX=require)" : ""}` : s.mode === "require" ? "not available: plugin processes are refused (GJC_SANDBOX=require)" : "not available: plugin processes run unconfined"}`,
    `  Landlock   ${on(s.landlock.active)}${s.landlock.active ? ` (ABI ${s.landlock.abi}: files${s.landlock.tcp ? ", TCP ports" : ""}${s.landlock.scoped ? ", abstract sockets and signals" : ""})` : ""}`,
    `  seccomp    ${on(s.seccomp.active)}${s.seccomp.active ? " (no UDP or raw sockets, namespaces, mounts, ptrace, io_uring)" : ""}`,
    `  namespaces ${on(s.namespaces.active)}${s.namespaces.unshare ? ` (user + network, via ${s.namespaces.unshare})` : ""}`,
    `  network    ${s.network === "namespace" ? "none (a network namespace with no route out)" : s.network === "landlock-tcp" ? "none (Landlock TCP rules; UDP refused by seccomp)" : "NOT confined"}`,
  ];
  for (const m of s.missing) lines.push(`  missing: ${m}`);
  for (const f of s.fallbacks) lines.push(`  instead: ${f}`);
  return lines;
}
