import type { CapabilityDiff, DiffSection, TrustDiff } from "../../families/capability-diff.ts";
import type { InstallCapabilityDiff } from "../../store/install-diff.ts";
import { describeGrantSet, processLabel } from "./grants.ts";
import type {
  EndpointCapability,
  EnvCapability,
  HookCapability,
  HostCapability,
  ProcessCapability,
} from "../../families/capability-model.ts";

const proc = (p: ProcessCapability) => `process ${p.id}: ${[p.command, ...p.args].join(" ")}`;
const endpoint = (e: EndpointCapability) => `endpoint ${e.id}: ${e.transport} ${e.url} (host ${e.host})`;
const env = (v: EnvCapability) => `env ${v.owner}: ${v.name}${v.mode === "passes" ? ` <- $${v.from}` : ""}`;
const hook = (h: HookCapability) =>
  `hook ${h.id}: ${h.event}${h.target ? ` ${h.target}` : ""}${h.phase ? ` (${h.phase})` : ""}`;
const host = (h: HostCapability) => `${h.kind} ${h.name}`;

function lines<T>(s: DiffSection<T>, show: (x: T) => string, out: string[], indent: string): void {
  for (const x of s.added) out.push(`${indent}+ ${show(x)}`);
  for (const x of s.removed) out.push(`${indent}- ${show(x)}`);
  for (const c of s.changed)
    out.push(`${indent}~ ${show(c.after)} (changed: ${c.fields.join(", ")}; was ${show(c.before)})`);
}

/** The diff as indented lines; "no capability changes" when empty, plus the prompt-text delta. */
export function describeCapabilityDiff(d: InstallCapabilityDiff, indent = "  "): string[] {
  if ("unavailable" in d) return [`${indent}capability diff unavailable: ${d.unavailable}`];
  const out: string[] = [`${indent}capability diff: ${d.empty ? "no capability changes" : "capabilities change"}`];
  const inner = `${indent}  `;
  lines(d.processes, proc, out, inner);
  lines(d.endpoints, endpoint, out, inner);
  lines(d.env, env, out, inner);
  lines(d.hooks, hook, out, inner);
  lines(d.hostCommands, host, out, inner);
  const p = d.prompts;
  if (p.delta !== 0 || p.added.length || p.removed.length || p.changed.length) {
    out.push(
      `${inner}prompt text: ${p.before} -> ${p.after} bytes (${p.delta >= 0 ? "+" : ""}${p.delta})${p.changed.length ? `, changed ${p.changed.join(", ")}` : ""}${p.added.length ? `, added ${p.added.join(", ")}` : ""}${p.removed.length ? `, removed ${p.removed.join(", ")}` : ""}`,
    );
  }
  if (d.grants) {
    out.push(
      `${inner}sandbox grants kept: ${describeGrantSet(d.grants.bundle)}${d.grants.inheritedBy.length ? ` (also for the added ${d.grants.inheritedBy.join(", ")})` : ""}`,
    );
    for (const g of d.grants.processes)
      out.push(
        `${inner}  ${processLabel(g.process)}: ${describeGrantSet(g.grants)}${g.declared ? "" : " (no longer declared: applies to nothing)"}`,
      );
  }
  return out;
}

export type { CapabilityDiff };

/** What changed since the previous trust, as `trust` shows it when trusting again. */
export function describeTrustDiff(d: TrustDiff, indent = "  "): string[] {
  const out = [`${indent}changed since it was last trusted:`];
  const inner = `${indent}  `;
  lines(d.processes, (p) => `process ${p.id}: ${[p.command, ...p.args].join(" ")}`, out, inner);
  lines(d.endpoints, (e) => `endpoint ${e.id}: ${e.transport} ${e.url} (host ${e.host})`, out, inner);
  lines(d.env, (v) => `env ${v.owner}: ${v.name}${v.mode === "passes" ? ` <- $${v.from}` : ""}`, out, inner);
  lines(d.hostCommands, (h) => `${h.kind} ${h.name}`, out, inner);
  if (d.codeChanged) out.push(`${inner}~ code: a module, script or data file the runtime can load`);
  return out;
}
