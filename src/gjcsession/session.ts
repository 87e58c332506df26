import { resolve } from "node:path";
import type { Context } from "../core/context.ts";
import type { QuarantineRecord, Scope } from "../install/registry-types.ts";
import { loadSession, type SessionBundle, type SessionState } from "./load.ts";
import { buildPlan, type SessionPlan } from "./plan.ts";
import type { RuntimeCheckResult, RuntimeTarget } from "./runtime-check.ts";
import { isHook, isSubskill, isTool, subskillToolName, subskillToolsOf } from "./surfaces.ts";

export interface SessionOptions {
  /** The project whose `.gjc/gjc-plugins` is the project scope (default: the working directory). */
  project?: string;
  /**
   * Runtime check of tool and hook modules in isolated children: `true` checks every active
   * one now (`--check-runtime`), `false` skips it (`--no-check-runtime`), and by default only
   * content never checked before is (verdicts are kept per content digest).
   */
  checkRuntime?: boolean;
  /** Tool names a bundle tool may never take (default: the GJC agent's built-in tools). */
  hostToolNames?: readonly string[];
  runtimeTimeoutMs?: number;
  /** DNS for the MCP host check at session start (tests); the system resolver otherwise. */
  resolver?: import("../policy/dns.ts").Resolver;
}

export interface RuntimeCheckSummary {
  /** Modules judged (loaded in a child now, or by an earlier verdict for the same content). */
  checked: number;
  failed: number;
  results: { scope: Scope; bundle: string; surfaceId: string; ok: boolean; code?: string; message?: string }[];
}

export interface SessionResult {
  plan: SessionPlan;
  runtimeCheck?: RuntimeCheckSummary;
  /** How many runtime verdicts came from the per-content cache (no child was started for them). */
  runtimeCheckCached?: number;
  /** Quarantine records written to a registry by this run. */
  persistedQuarantine: number;
}

/** The tool and hook modules of an active bundle's active surfaces, as runtime-check targets. */
function targetsOf(b: SessionBundle): RuntimeTarget[] {
  if (b.status !== "active") return [];
  const { scope, name: bundle, pluginRoot } = b.entry;
  const out: RuntimeTarget[] = [];
  // Module paths are joined by hand, as the plan joins them (plan.ts): the root is absolute and
  // normalized, the path an installed file's validated relative POSIX path.
  for (const { surface: s, status } of b.surfaces) {
    if (status !== "active") continue;
    const surfaceId = s.extensionId;
    if (isTool(s))
      out.push({
        scope,
        bundle,
        pluginRoot,
        surfaceId,
        kind: "tool",
        path: s.path,
        module: `${pluginRoot}/${s.path}`,
        name: s.name,
      });
    else if (isHook(s))
      out.push({
        scope,
        bundle,
        pluginRoot,
        surfaceId,
        kind: "hook",
        path: s.path,
        module: `${pluginRoot}/${s.path}`,
        name: s.name,
        event: s.event,
      });
    // A sub-skill's tools are tools like any other: loaded in isolation, held to the name their
    // file gives them; a failure quarantines the sub-skill that brings them.
    else if (isSubskill(s))
      for (const t of subskillToolsOf(b.entry, s))
        out.push({
          scope,
          bundle,
          pluginRoot,
          surfaceId,
          kind: "tool",
          path: t.path,
          module: t.module,
          name: subskillToolName(t.path),
        });
  }
  return out;
}

/** The tool and hook modules of the active bundles, as runtime-check targets (bundle by bundle). */
export function runtimeTargets(bundles: SessionBundle[]): RuntimeTarget[] {
  return bundles.flatMap(targetsOf);
}

/**
 * Applies failed runtime checks: the surface is quarantined in this session's state and the
 * record is persisted in its scope's registry. Returns how many records were written.
 */
export async function quarantineRuntimeFailures(
  ctx: Context,
  state: SessionState,
  results: RuntimeCheckResult[],
  persist = true,
): Promise<number> {
  const at = ctx.now().toISOString();
  const byScope: Record<Scope, Map<string, { name: string; pluginRoot: string; records: QuarantineRecord[] }>> = {
    user: new Map(),
    project: new Map(),
  };
  for (const r of results) {
    if (r.ok) continue;
    const t = r.target;
    const bundle = state.bundles.find((b) => b.entry.scope === t.scope && b.entry.name === t.bundle);
    const surface = bundle?.surfaces.find((s) => s.surface.extensionId === t.surfaceId);
    if (!bundle || !surface) continue;
    surface.status = "quarantined";
    surface.reasons.push({
      surfaceId: t.surfaceId,
      code: r.code ?? "runtime_mismatch",
      message: r.message ?? "",
      persisted: persist,
    });
    state.diagnostics.push({
      scope: t.scope,
      bundle: t.bundle,
      surfaceId: t.surfaceId,
      code: r.code ?? "runtime_mismatch",
      severity: "error",
      message: r.message ?? "",
    });
    const group = byScope[t.scope].get(t.bundle) ?? { name: t.bundle, pluginRoot: t.pluginRoot, records: [] };
    group.records.push({
      surfaceId: t.surfaceId,
      code: r.code ?? "runtime_mismatch",
      message: r.message ?? "",
      detectedAt: at,
    });
    byScope[t.scope].set(t.bundle, group);
  }
  if (!persist) return 0;
  let written = 0;
  const roots = Object.fromEntries(state.scopes.map((s) => [s.scope, s.root])) as Record<Scope, string>;
  for (const scope of ["user", "project"] as const) {
    // A scope the GJC agent wrote is never written by gjc: its findings hold for this session only.
    if (byScope[scope].size === 0 || state.scopes.some((s) => s.scope === scope && s.readOnly)) continue;
    const { persistOrReport } = await import("./quarantine-store.ts");
    written += (await persistOrReport(ctx, scope, roots[scope], [...byScope[scope].values()], state.diagnostics)) ?? 0;
  }
  return written;
}

export const summarizeRuntime = (results: RuntimeCheckResult[]): RuntimeCheckSummary => ({
  checked: results.length,
  failed: results.filter((r) => !r.ok).length,
  results: results.map((r) => ({
    scope: r.target.scope,
    bundle: r.target.bundle,
    surfaceId: r.target.surfaceId,
    ok: r.ok,
    ...(r.ok ? {} : { code: r.code, message: r.message }),
  })),
});

/**
 * `gjc plugin session`: the verified, fail-closed plan an agent host needs at session start.
 * Plugin code is only ever loaded by `checkRuntime`, and then in isolated children.
 */
export async function startSession(ctx: Context, options: SessionOptions = {}): Promise<SessionResult> {
  const projectDir = resolve(ctx.cwd, options.project ?? ".");
  const state = await loadSession(ctx, { projectDir, hostToolNames: options.hostToolNames });
  let persisted = state.persistedNow;
  let runtimeCheck: RuntimeCheckSummary | undefined;
  let runtimeCheckCached = 0;
  if (options.checkRuntime !== false) {
    const r = await checkWithVerdicts(ctx, state, options.checkRuntime === true, options.runtimeTimeoutMs);
    persisted += r.persisted;
    runtimeCheck = r.summary;
    runtimeCheckCached = r.cached;
  }
  return {
    plan: await buildPlan(state, { resolver: options.resolver }),
    runtimeCheck,
    runtimeCheckCached,
    persistedQuarantine: persisted,
  };
}

/**
 * The runtime check with its verdict cache: a bundle whose digest has a verdict has none of its
 * modules loaded again (a cached failure quarantines the surface again, without a child); the
 * other bundles' targets are checked in isolated children and their verdicts recorded. `all`
 * ignores the cache.
 */
async function checkWithVerdicts(
  ctx: Context,
  state: SessionState,
  all: boolean,
  timeoutMs?: number,
): Promise<{ summary?: RuntimeCheckSummary; cached: number; persisted: number }> {
  const bundles = state.bundles
    .map((b) => ({ entry: b.entry, targets: targetsOf(b) }))
    .filter((b) => b.targets.length > 0);
  if (bundles.length === 0) return { cached: 0, persisted: 0 };
  const { VerdictStore, bundleDigest, resultsOf } = await import("./runtime-verdicts.ts");
  const roots = Object.fromEntries(state.scopes.map((s) => [s.scope, s.root])) as Record<Scope, string>;
  const stores: Partial<Record<Scope, InstanceType<typeof VerdictStore>>> = {};
  const storeOf = (scope: Scope) => (stores[scope] ??= new VerdictStore(ctx, roots[scope], scope));
  // Each bundle's results, from its verdict or (below) from the children, kept in bundle and
  // target order so the document is the same at the first session start and at every later one.
  const checks = bundles.map(({ entry, targets }) => {
    const digest = bundleDigest(entry, targets);
    const known = all ? undefined : storeOf(entry.scope).get(digest);
    return { entry, targets, digest, results: known ? resultsOf(known, targets) : undefined };
  });
  const fresh = checks.filter((c) => c.results === undefined);
  if (fresh.length > 0) {
    const { checkRuntimeSurfaces } = await import("./runtime-check.ts");
    const checked = await checkRuntimeSurfaces(
      ctx,
      fresh.flatMap((c) => c.targets),
      { timeoutMs },
    );
    const at = ctx.now().toISOString();
    let next = 0;
    for (const c of fresh) {
      c.results = checked.slice(next, (next += c.targets.length));
      // A timeout says more about this machine's load than about the module: not cached.
      if (c.results.some((r) => !r.ok && r.message?.includes("did not finish loading"))) continue;
      if (state.scopes.some((s) => s.scope === c.entry.scope && s.readOnly)) continue;
      storeOf(c.entry.scope).record(c.digest, c.results, at);
    }
    for (const s of Object.values(stores)) s?.save();
  }
  const results = checks.flatMap((c) => c.results ?? []);
  const persisted = await quarantineRuntimeFailures(ctx, state, results);
  return {
    summary: summarizeRuntime(results),
    cached: results.length - fresh.reduce((n, c) => n + c.targets.length, 0),
    persisted,
  };
}
