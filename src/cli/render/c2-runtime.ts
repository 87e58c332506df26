/** Human text of the C2 runtime verbs: plugin run, connector invoke, lsp list/probe, ui list/invoke. */
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../../bundle/json.ts";
import type { HostActionItem } from "../../c2host/host-actions.ts";
import type { LspProbeResult, LspServerEntry } from "../../c2host/lsp.ts";
import type { LspRoute } from "../../c2host/lsp-routing.ts";
import type { UiListEntry } from "../../c2host/ui-actions.ts";
import { GjcError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import type { Style } from "../../core/style.ts";

/**
 * A runtime's answer as text. An answer nested deeper than any real result (up to 1 MiB a
 * frame allows ~500,000 levels) would overflow the stack when printed, in human and --json
 * output alike: it is refused as the runtime's protocol error instead of ending in exit 70.
 */
/** The progress line of `gjc plugin run` (stderr): which bundle ran the command, in which realm. */
export function describeRunProgress(r: {
  command: string;
  plugin: { name: string; version: string };
  realm: { kind: string; projectPath?: string | null };
}): string {
  const realm = r.realm.kind === "user" ? "user realm" : `project ${r.realm.projectPath}`;
  return `${r.command} ran in ${r.plugin.name} ${r.plugin.version} (${realm})`;
}

export function pretty(value: unknown): string {
  if (nestedDeeperThan(value)) {
    throw new GjcError({
      code: "runtime_protocol_error",
      message: `The answer is nested deeper than ${MAX_JSON_DEPTH} levels, so it cannot be printed.`,
      hint: "Fix the plugin: its answer must be plain JSON data of a reasonable shape.",
      exit: ExitCode.failed,
    });
  }
  return JSON.stringify(value, null, 2) ?? "null";
}

export function describeLanguageServers(r: { servers: LspServerEntry[]; languages: LspRoute[] }, s: Style): string {
  const lines: string[] = [];
  if (r.servers.length === 0) lines.push("No C2 language servers are installed.");
  for (const sv of r.servers)
    lines.push(
      `${sv.status === "ready" ? s.green("ready") : s.yellow(sv.status)}  ${s.bold(`${sv.pluginName}/${sv.server}`)}  ${sv.languages.join(", ")}  (${sv.command})${sv.reasons[0] ? s.dim(` [${sv.reasons[0].code}]`) : ""}`,
    );
  if (r.languages.length > 0) lines.push("", "Languages:");
  for (const l of r.languages) {
    if (l.provider) lines.push(`  ${l.language} → ${l.provider.pluginName}/${l.provider.server}`);
    else
      lines.push(
        `  ${l.language} → ${s.red("conflict")}: ${l.providers.map((p) => `${p.pluginName}/${p.server}`).join(", ")} (no server; disable all but one)`,
      );
  }
  return lines.join("\n");
}

export function describeLspProbe(r: LspProbeResult): string {
  return [
    `${r.plugin}/${r.server} (${r.languages.join(", ")}) answered initialize and was stopped.`,
    `capabilities: ${pretty(r.capabilities)}`,
  ].join("\n");
}

export function describeUiList(entries: UiListEntry[], s: Style): string {
  return entries.length === 0
    ? "No UI contributions."
    : entries
        .map(
          (e) =>
            `${e.status === "ready" ? s.green("ready") : s.yellow(e.status)}  ${s.bold(`${e.pluginName}/${e.id}`)}  ${e.slot}  "${e.label}" → ${e.command}${e.reasons[0] ? s.dim(` (${e.reasons[0].message})`) : ""}`,
        )
        .join("\n");
}

export function describeHostActions(items: HostActionItem[]): string {
  return items.length === 0
    ? "No host actions rendered."
    : items
        .map(
          (i) => `${i.id}  ${i.label}${i.detail ? ` — ${i.detail}` : ""}  [${i.state}${i.enabled ? "" : ", disabled"}]`,
        )
        .join("\n");
}
