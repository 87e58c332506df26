/**
 * The capability diff between two models (installed → candidate): processes, endpoints,
 * environment, hooks and host commands added, removed or changed, and how much prompt text
 * grows. Where something is declared (`at`) is not a capability, so moving an entry in the
 * manifest changes nothing; prompt text is compared by size and digest only, and never makes
 * the diff non-empty (a SKILL.md edit is text, not capability).
 */
import type { TrustedCapabilities } from "./c2/trust.ts";
import type {
  CapabilityModel,
  EndpointCapability,
  EnvCapability,
  HookCapability,
  HostCapability,
  ProcessCapability,
} from "./capability-model.ts";

export interface Changed<T> {
  id: string;
  /** The fields whose values differ. */
  fields: string[];
  before: T;
  after: T;
}

export interface DiffSection<T> {
  added: T[];
  removed: T[];
  changed: Changed<T>[];
}

export interface CapabilityDiff {
  /** No process, endpoint, env, hook or host command was added, removed or changed. */
  empty: boolean;
  processes: DiffSection<ProcessCapability>;
  endpoints: DiffSection<EndpointCapability>;
  env: DiffSection<EnvCapability>;
  hooks: DiffSection<HookCapability>;
  hostCommands: DiffSection<HostCapability>;
  prompts: { before: number; after: number; delta: number; added: string[]; removed: string[]; changed: string[] };
  files: { before: number; after: number; bytesBefore: number; bytesAfter: number };
}

/** The comparable part of a capability: everything but where it is declared. */
function facts(value: object): Record<string, unknown> {
  const { at: _at, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** One kind of capability, keyed: added, removed, and changed (by the fields that differ). */
export function diffSection<T extends object>(before: T[], after: T[], key: (x: T) => string): DiffSection<T> {
  const old = new Map(before.map((x) => [key(x), x]));
  const now = new Map(after.map((x) => [key(x), x]));
  const out: DiffSection<T> = { added: [], removed: [], changed: [] };
  for (const [k, x] of now) {
    const prev = old.get(k);
    if (!prev) {
      out.added.push(x);
      continue;
    }
    const a = facts(prev);
    const b = facts(x);
    const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((f) => !Bun.deepEquals(a[f], b[f]));
    if (fields.length) out.changed.push({ id: k, fields, before: prev, after: x });
  }
  for (const [k, x] of old) if (!now.has(k)) out.removed.push(x);
  return out;
}

const sizeOf = (s: DiffSection<unknown>) => s.added.length + s.removed.length + s.changed.length;

export function diffCapabilities(before: CapabilityModel, after: CapabilityModel): CapabilityDiff {
  const processes = diffSection(before.processes, after.processes, (p) => p.id);
  const endpoints = diffSection(before.endpoints, after.endpoints, (e) => e.id);
  const env = diffSection(before.env, after.env, (v) => `${v.owner}:${v.name}`);
  const hooks = diffSection(before.hooks, after.hooks, (h) => h.id);
  const hostCommands = diffSection(before.hostCommands, after.hostCommands, (h) => `${h.owner}|${h.kind}|${h.name}`);
  const prompts = diffSection(before.prompts, after.prompts, (p) => p.id);
  return {
    empty: sizeOf(processes) + sizeOf(endpoints) + sizeOf(env) + sizeOf(hooks) + sizeOf(hostCommands) === 0,
    processes,
    endpoints,
    env,
    hooks,
    hostCommands,
    prompts: {
      before: before.promptBytes,
      after: after.promptBytes,
      delta: after.promptBytes - before.promptBytes,
      added: prompts.added.map((p) => p.id),
      removed: prompts.removed.map((p) => p.id),
      changed: prompts.changed.map((c) => c.id),
    },
    files: {
      before: before.files.count,
      after: after.files.count,
      bytesBefore: before.files.bytes,
      bytesAfter: after.files.bytes,
    },
  };
}

export interface TrustDiff {
  empty: boolean;
  processes: DiffSection<TrustedCapabilities["processes"][number]>;
  endpoints: DiffSection<TrustedCapabilities["endpoints"][number]>;
  env: DiffSection<TrustedCapabilities["env"][number]>;
  hostCommands: DiffSection<TrustedCapabilities["hostCommands"][number]>;
  /** The bundle's non-prompt files differ from those trusted (or were not bound then). */
  codeChanged: boolean;
}

/** What changed between the capabilities that were trusted and the installed ones. */
export function diffTrusted(before: TrustedCapabilities, after: TrustedCapabilities): TrustDiff {
  const processes = diffSection(before.processes, after.processes, (p) => p.id);
  const endpoints = diffSection(before.endpoints, after.endpoints, (e) => e.id);
  const env = diffSection(before.env, after.env, (v) => `${v.owner}:${v.name}`);
  const hostCommands = diffSection(before.hostCommands, after.hostCommands, (h) => `${h.owner}|${h.kind}|${h.name}`);
  const codeChanged = before.code !== after.code;
  return {
    empty: !codeChanged && sizeOf(processes) + sizeOf(endpoints) + sizeOf(env) + sizeOf(hostCommands) === 0,
    processes,
    endpoints,
    env,
    hostCommands,
    codeChanged,
  };
}

/** One line for an error message: `+ process x; ~ process y (args); - endpoint z`. */
export function summarizeTrustDiff(d: TrustDiff): string {
  const parts: string[] = [];
  const add = <T extends object>(label: string, s: DiffSection<T>, id: (x: T) => string) => {
    for (const x of s.added) parts.push(`+ ${label} ${id(x)}`);
    for (const x of s.removed) parts.push(`- ${label} ${id(x)}`);
    for (const c of s.changed) parts.push(`~ ${label} ${c.id} (${c.fields.join(", ")})`);
  };
  add("process", d.processes, (p) => p.id);
  add("endpoint", d.endpoints, (e) => `${e.id} ${e.url}`);
  add("env", d.env, (v) => `${v.owner}:${v.name}`);
  add("host", d.hostCommands, (h) => `${h.kind} ${h.name}`);
  if (d.codeChanged) parts.push("~ code (a module, script or data file the runtime can load)");
  return parts.length ? parts.join("; ") : "no capability changes";
}

/** What changed since a C2 record was trusted, as one line (`trust_outdated` refusals say it). */
export function trustChangeSummary(r: {
  capabilities?: TrustedCapabilities;
  trusted_capabilities?: TrustedCapabilities;
}): string {
  return r.capabilities && r.trusted_capabilities
    ? summarizeTrustDiff(diffTrusted(r.trusted_capabilities, r.capabilities))
    : "its capabilities changed";
}
