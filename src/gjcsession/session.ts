import { join, resolve } from "node:path";
import type { Context } from "../core/context.ts";
import type { QuarantineRecord, Scope } from "../install/registry-types.ts";
import { loadSession, type SessionBundle, type SessionState } from "./load.ts";
import { buildPlan, type SessionPlan } from "./plan.ts";
import type { RuntimeCheckResult, RuntimeTarget } from "./runtime-check.ts";
import { isHook, isTool } from "./surfaces.ts";

export interface SessionOptions {
  /** The project whose `.gjc/gjc-plugins` is the project scope (default: the working directory). */
  project?: string;
  /** Also load every active tool and hook module in an isolated child (`--check-runtime`). */
  checkRuntime?: boolean;
  runtimeTimeoutMs?: number;
  /** DNS for the MCP host check at session start (tests); the system resolver otherwise. */
  resolver?: import("../policy/dns.ts").Resolver;
}

export interface RuntimeCheckSummary {
  checked: number;
  failed: number;
  results: { scope: Scope; bundle: string; surfaceId: string; ok: boolean; code?: string; message?: string }[];
}

export interface SessionResult {
  plan: SessionPlan;
  runtimeCheck?: RuntimeCheckSummary;
  /** Quarantine records written to a registry by this run. */
  persistedQuarantine: number;
}

/** The tool and hook modules of the active bundles, as runtime-check targets. */
export function runtimeTargets(bundles: SessionBundle[]): RuntimeTarget[] {
  const out: RuntimeTarget[] = [];
  for (const b of bundles) {
    if (b.status !== "active") continue;
    for (const { surface: s, status } of b.surfaces) {
      if (status !== "active") continue;
      const base = { scope: b.entry.scope, bundle: b.entry.name, pluginRoot: b.entry.pluginRoot, surfaceId: s.extensionId };
      if (isTool(s)) out.push({ ...base, kind: "tool", module: join(b.entry.pluginRoot, s.path), name: s.name });
      else if (isHook(s)) out.push({ ...base, kind: "hook", module: join(b.entry.pluginRoot, s.path), name: s.name, event: s.event });
    }
  }
  return out;
}

/**
 * Applies failed runtime checks: the surface is quarantined in this session's state and the
 * record is persisted in its scope's registry. Returns how many records were written.
 */
export async function quarantineRuntimeFailures(ctx: Context, state: SessionState, results: RuntimeCheckResult[], persist = true): Promise<number> {
  const at = ctx.now().toISOString();
  const byScope: Record<Scope, Map<string, { name: string; pluginRoot: string; records: QuarantineRecord[] }>> = { user: new Map(), project: new Map() };
  for (const r of results) {
    if (r.ok) continue;
    const t = r.target;
    const bundle = state.bundles.find((b) => b.entry.scope === t.scope && b.entry.name === t.bundle);
    const surface = bundle?.surfaces.find((s) => s.surface.extensionId === t.surfaceId);
    if (!bundle || !surface) continue;
    surface.status = "quarantined";
    surface.reasons.push({ surfaceId: t.surfaceId, code: r.code ?? "runtime_mismatch", message: r.message ?? "", persisted: persist });
    state.diagnostics.push({ scope: t.scope, bundle: t.bundle, surfaceId: t.surfaceId, code: r.code ?? "runtime_mismatch", severity: "error", message: r.message ?? "" });
    const group = byScope[t.scope].get(t.bundle) ?? { name: t.bundle, pluginRoot: t.pluginRoot, records: [] };
    group.records.push({ surfaceId: t.surfaceId, code: r.code ?? "runtime_mismatch", message: r.message ?? "", detectedAt: at });
    byScope[t.scope].set(t.bundle, group);
  }
  if (!persist) return 0;
  let written = 0;
  const roots = Object.fromEntries(state.scopes.map((s) => [s.scope, s.root])) as Record<Scope, string>;
  for (const scope of ["user", "project"] as const) {
    if (byScope[scope].size === 0) continue;
    const { persistOrReport } = await import("./quarantine-store.ts");
    written += (await persistOrReport(ctx, scope, roots[scope], [...byScope[scope].values()], state.diagnostics)) ?? 0;
  }
  return written;
}

export const summarizeRuntime = (results: RuntimeCheckResult[]): RuntimeCheckSummary => ({
  checked: results.length,
  failed: results.filter((r) => !r.ok).length,
  results: results.map((r) => ({ scope: r.target.scope, bundle: r.target.bundle, surfaceId: r.target.surfaceId, ok: r.ok, ...(r.ok ? {} : { code: r.code, message: r.message }) })),
});

/**
 * `gjc plugin session`: the verified, fail-closed plan an agent host needs at session start.
 * Plugin code is only ever loaded by `checkRuntime`, and then in isolated children.
 */
export async function startSession(ctx: Context, options: SessionOptions = {}): Promise<SessionResult> {
  const projectDir = resolve(ctx.cwd, options.project ?? ".");
  const state = await loadSession(ctx, { projectDir });
  let persisted = state.persistedNow;
  let runtimeCheck: RuntimeCheckSummary | undefined;
  if (options.checkRuntime) {
    const { checkRuntimeSurfaces } = await import("./runtime-check.ts");
    const results = await checkRuntimeSurfaces(ctx, runtimeTargets(state.bundles), { timeoutMs: options.runtimeTimeoutMs });
    persisted += await quarantineRuntimeFailures(ctx, state, results);
    runtimeCheck = summarizeRuntime(results);
  }
  return { plan: await buildPlan(state, { resolver: options.resolver }), runtimeCheck, persistedQuarantine: persisted };
}
