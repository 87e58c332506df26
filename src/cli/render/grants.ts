import type { Context } from "../../core/context.ts";
import type { AllowResult, GrantProcess, PermissionsResult } from "../../app/grant-verbs.ts";
import { formatNetGrant } from "../../store/grant-values.ts";
import type { GrantSet } from "../../store/grants.ts";
import type { SandboxProfile } from "../../process/sandbox/profile.ts";

export const processLabel = (p: GrantProcess | null) =>
  p === null
    ? "every process"
    : p.kind === "runtime"
      ? "the runtime"
      : `${p.kind === "server" ? "server" : "language server"} ${p.id}`;

/** `read: a, b · write: c · net: h:443 · project: read`, or `none`. */
export function describeGrantSet(g: GrantSet): string {
  const parts: string[] = [];
  if (g.read.length) parts.push(`read ${g.read.join(", ")}`);
  if (g.write.length) parts.push(`write ${g.write.join(", ")}`);
  if (g.net.length) parts.push(`net ${g.net.map(formatNetGrant).join(", ")}`);
  if (g.project) parts.push(`project ${g.project}`);
  return parts.length ? parts.join("; ") : "none";
}

export function describeAllow(ctx: Context, r: AllowResult): string {
  const who = `${ctx.out.bold(r.bundle.name)} (${processLabel(r.process)})`;
  const lines = [
    r.status === "unchanged"
      ? `${who} already had these grants; nothing changed.`
      : `${r.dryRun ? "Would " : ""}${r.status === "reset" ? (r.dryRun ? "take back the grants of" : "Took back the grants of") : r.dryRun ? "grant" : "Granted"} ${who}.`,
    `Grants now: ${describeGrantSet(r.grants)}.`,
  ];
  for (const w of r.warnings) lines.push(`${ctx.out.yellow("warning")} ${w.message}`);
  return lines.join("\n");
}

const profileLines = (p: SandboxProfile) => [
  `  read:  ${p.read.join(", ") || "-"}`,
  `  write: ${p.write.join(", ") || "-"}`,
  `  net:   ${p.net.map(formatNetGrant).join(", ") || "none"}`,
];

export function describePermissions(ctx: Context, r: PermissionsResult): string {
  const lines = [`${ctx.out.bold(r.bundle.name)} (${r.bundle.family}, ${r.bundle.scope} scope)`];
  if (r.grantsFile.state === "foreign")
    lines.push(
      `${ctx.out.red("foreign")} ${r.grantsFile.path} was not written by gjc for you (${r.grantsFile.problem}); none of its grants apply.`,
    );
  lines.push(`Grants for every process: ${describeGrantSet(r.grants)}.`);
  if (r.processes.length === 0) lines.push("It starts no process of its own.");
  for (const p of r.processes) {
    lines.push(
      `${processLabel(p.process)}${p.grants.read.length + p.grants.write.length + p.grants.net.length || p.grants.project ? ` (own grants: ${describeGrantSet(p.grants)})` : ""}:`,
      ...profileLines(p.profile),
    );
  }
  lines.push(
    ctx.out.dim(
      "Besides these, the sandbox lets every process read the system directories its command needs and write its own data and private temporary directories.",
    ),
  );
  return lines.join("\n");
}
