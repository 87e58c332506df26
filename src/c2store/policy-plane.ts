/**
 * The revision-bound policy plane (C2 standard §4, c2-notes §7.3-7.6):
 *   catalog → plan (exact impact + a single-use token bound to the current revisions)
 *   → apply (refused when stale or used; rolled back when the requested state is not
 *   reached; only then last-known-good advances) — plus reset, the recovery operation.
 */
import { missingServices } from "../families/c2/host-services.ts";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { graphRevision } from "./graph-revision.ts";
import { collectActiveResources, runSettle, type ActiveResource } from "./hooks.ts";
import { crashPoint } from "../store/crash-hook.ts";
import { cleanLeftovers } from "./leftovers.ts";
import { withC2Lock } from "./lock.ts";
import { c2Layout, idFromPolicyKey, policyKey, type C2Layout } from "./paths.ts";
import { bundleComponentIds, resolvePolicy, supportsProjectScope, type EffectivePolicy } from "./policy.ts";
import {
  clonePolicy,
  samePolicyContent,
  type PluginPolicy,
  type PolicyDocument,
  type PolicyState,
  type RequestedState,
} from "./policy-doc.ts";
import {
  commitPolicy,
  markLastGood,
  openPolicy,
  readPrimaryBytes,
  recoveryError,
  restorePrimary,
  type PolicyView,
  type Recovery,
} from "./policy-store.ts";
import {
  claimPlan,
  isPlanToken,
  newToken,
  PLAN_TTL_MS,
  savePlan,
  sweepPlans,
  type PlanRequest as StoredPlanRequest,
  type StoredPlan,
} from "./plans.ts";
import { normalizeProjectPath } from "./project-key.ts";
import { findRecord, scanRecords, toInstalled, type BrokenRecord } from "./records.ts";
import type { InstalledRecord } from "./record.ts";
import { trustStateOf, type TrustState } from "../families/c2/trust.ts";
import { trustChangeSummary } from "../families/capability-diff.ts";

export { policyCatalog, scopeOf, type CatalogEntry, type CatalogResult, type ScopeRef } from "./policy-catalog.ts";
import { scopeOf, type ScopeRef } from "./policy-catalog.ts";

export interface PlanInput {
  plugin: string;
  /** Left out: the state written at that scope stays as it is (only config changes). */
  state?: RequestedState;
  component?: string;
  /** Present when a configuration should be set (any JSON; 1.2.0 runtimes declare no schema). */
  config?: unknown;
  project?: string;
}

/** What a plan changes: the stored plan's request (plans.ts) in gjc's own key names. */
export interface PlanRequest {
  /** `bundle:<installed id>`. */
  plugin: string;
  installedId: string;
  /** Normalized project path; null for the user scope. */
  project: string | null;
  state: RequestedState;
  /** Full component id (`bundle:<id>:<kind>:<local id>`), or null for the whole plugin. */
  component: string | null;
  /** Present only when the plan sets a configuration. */
  config?: unknown;
}

/** The plan file keeps the C2 record vocabulary (installed_id); the core speaks gjc's. */
function storedRequest(r: PlanRequest): StoredPlanRequest {
  return {
    plugin: r.plugin,
    installed_id: r.installedId,
    project: r.project,
    state: r.state,
    component: r.component,
    ...("config" in r ? { config: r.config } : {}),
  };
}

function requestOf(r: StoredPlanRequest): PlanRequest {
  return {
    plugin: r.plugin,
    installedId: r.installed_id,
    project: r.project,
    state: r.state,
    component: r.component,
    ...("config" in r ? { config: r.config } : {}),
  };
}

/** Why trust holds back what a plan enables: never trusted, or trusted before its capabilities changed. */
export type TrustBlock = Exclude<TrustState, "trusted">;

export interface PlanImpact {
  token: string;
  expiresAt: string;
  configRevision: number;
  graphRevision: string;
  request: PlanRequest;
  scope: ScopeRef;
  /** True when applying would not change the document. */
  noop: boolean;
  before: { state: PolicyState; config: unknown; components: Record<string, PolicyState> };
  after: { state: PolicyState; config: unknown; components: Record<string, PolicyState> };
  affected: string[];
  activeResources: ActiveResource[];
  requiresConfirmation: boolean;
  /**
   * False when applying cannot settle: the change leaves a runtime enabled that waits for a
   * service this host lacks (pending is not enabled). Apply then rolls back and last-known-good
   * stays where it was.
   */
  settles: boolean;
  /** Services the runtime needs that this host does not provide. */
  missingServices: string[];
  /**
   * Why trust holds back the runtime or language servers this plan enables (then it cannot
   * settle either): never trusted, or trusted before its capabilities changed (needs re-trust).
   */
  trustBlock: TrustBlock | null;
  /** What stands in the way of applying it: a code (`gjc explain`) and what to do. */
  warnings: PlanWarning[];
}

export interface PlanWarning {
  code: "untrusted" | "trust_outdated" | "missing_service" | "plugin_disabled";
  message: string;
}

/**
 * Whether trust holds back what an explicit enable of the whole bundle would start (its runtime
 * or language servers): the same trust state the policy catalog and the host read, so a bundle
 * whose capabilities changed since it was trusted counts as not trusted (issue #15).
 */
function trustBlock(
  record: InstalledRecord,
  request: { state?: RequestedState; component: string | null },
): TrustBlock | null {
  const needsTrust = record.manifest.codetwo.runtime !== null || record.manifest.codetwo.languageServers.length > 0;
  if (request.state !== "enabled" || request.component !== null || !needsTrust) return null;
  const state = trustStateOf(record);
  return state === "trusted" ? null : state;
}

/** The services a plugin-level change would leave an enabled runtime waiting for. */
function pendingAfter(record: InstalledRecord, component: string | null, after: EffectivePolicy): string[] {
  const runtime = record.manifest.codetwo.runtime;
  // A runtime trust holds back is held back by trust first (settle says so); only a runnable one is pending.
  if (component !== null || runtime === null || after.state !== "enabled" || trustStateOf(record) !== "trusted")
    return [];
  return missingServices(runtime.inject);
}

function unknownPlugin(plugin: string): GjcError {
  return new GjcError({
    code: "not_installed",
    message: `No C2 bundle named ${plugin} is installed.`,
    hint: 'Run "gjc plugin policy catalog" to see the plugins policy can change.',
  });
}

/** Resolves `--component`: a full id, or `<kind>:<local id>` of this bundle. */
function resolveComponent(record: InstalledRecord, component: string): string {
  const known = bundleComponentIds(record.id, record.manifest);
  const full = component.startsWith("bundle:") ? component : `${policyKey(record.id)}:${component}`;
  if (known.includes(full)) return full;
  throw new GjcError({
    code: "unknown_component",
    message: `${record.name} has no component ${component}.`,
    hint:
      known.length === 0
        ? `${record.name} declares no UI actions, connectors or language servers.`
        : `Components of ${record.name}: ${known.map((k) => k.slice(policyKey(record.id).length + 1)).join(", ")}.`,
    exit: ExitCode.usage,
  });
}

/** The document after a request is applied to it. */
function applyRequest(doc: PolicyDocument, request: PlanRequest): PolicyDocument {
  const next = clonePolicy(doc);
  const map = request.project === null ? next.user : (next.projects[request.project] ??= {});
  const current: PluginPolicy = { ...(map[request.plugin] ?? {}) };
  if (request.component !== null) {
    const components = { ...(current.components ?? {}) };
    if (request.state === "inherit") delete components[request.component];
    else components[request.component] = request.state;
    current.components = components;
  } else {
    if (request.state === "inherit") delete current.state;
    else current.state = request.state;
    if ("config" in request) current.config = request.config;
  }
  map[request.plugin] = current;
  return next;
}

function resetRequest(doc: PolicyDocument, plugin: string, project: string | null): PolicyDocument {
  const next = clonePolicy(doc);
  if (project === null) delete next.user[plugin];
  else if (next.projects[project]) delete next.projects[project][plugin];
  return next;
}

function summary(e: EffectivePolicy) {
  return { state: e.state, config: e.config, components: e.components };
}

/** `gjc plugin policy plan`: validates a change, computes its exact impact, stores a token. */
export async function planPolicyChange(ctx: Context, input: PlanInput): Promise<PlanImpact> {
  const layout = c2Layout(ctx);
  const record = findRecord(layout, input.plugin);
  if (!record) throw unknownPlugin(input.plugin);
  const view = openPolicy(layout);
  if (view.recovery.kind !== "normal") throw recoveryError(view, input.plugin);

  const manifest = record.manifest;
  const hasRuntime = manifest.codetwo.runtime !== null;
  if (!hasRuntime && manifest.codetwo.languageServers.length === 0) {
    throw new GjcError({
      code: "no_runtime",
      message: `${record.name} is data-only: it has no runtime or language server for policy to govern.`,
      hint: `Its contributions are user-wide; use "gjc plugin disable ${record.name}" to turn the whole bundle off.`,
      exit: ExitCode.refused,
    });
  }
  let project: string | undefined;
  if (input.project !== undefined) {
    project = normalizeProjectPath(ctx, input.project);
    if (!supportsProjectScope(manifest)) {
      throw new GjcError({
        code: "unsupported_scope",
        message: `${record.name} does not support project scope (its runtime declares scopeSupport ${JSON.stringify(manifest.codetwo.runtime?.scopeSupport ?? ["user"])}).`,
        hint: "Change its user policy instead (leave out --project).",
        exit: ExitCode.refused,
      });
    }
  }
  if (input.component !== undefined && input.config !== undefined) {
    throw new GjcError({
      code: "usage",
      message: "--config applies to the whole plugin, not to one component.",
      hint: "Plan the component and the configuration separately.",
      exit: ExitCode.usage,
    });
  }
  const component = input.component === undefined ? null : resolveComponent(record, input.component);
  if (component !== null && input.state === undefined) {
    throw new GjcError({
      code: "usage",
      message: "A component change needs an explicit state.",
      hint: "Pass the state enabled, disabled or inherit (inherit removes the override).",
      exit: ExitCode.usage,
    });
  }
  const plugin = policyKey(record.id);
  // A plan without a state keeps the state written at this scope (a disabled plugin stays disabled).
  const written =
    (project === undefined ? view.doc.user[plugin] : view.doc.projects[project]?.[plugin])?.state ?? "inherit";
  const request: PlanRequest = {
    plugin,
    installedId: record.id,
    project: project ?? null,
    state: input.state ?? written,
    component,
    ...(input.config !== undefined ? { config: input.config } : {}),
  };

  const nextDoc = applyRequest(view.doc, request);
  const before = resolvePolicy(view, record, project);
  const after = resolvePolicy({ doc: nextDoc, recovery: view.recovery }, record, project);
  const installed = toInstalled(layout, record);
  const warnings: PlanWarning[] = [];
  const active: ActiveResource[] = [];
  const hasServers = manifest.codetwo.languageServers.length > 0;
  if (
    component === null &&
    before.state === "enabled" &&
    after.state === "disabled" &&
    (hasRuntime || hasServers) &&
    record.trusted
  ) {
    if (hasRuntime)
      active.push({
        plugin: request.plugin,
        kind: "plugin-scope",
        id: project === undefined ? request.plugin : `${request.plugin}@${project}`,
        label: `${record.name} runtime`,
      });
    // What a running host would stop (its runtimes and language servers), when one answers here.
    active.push(...(await collectActiveResources(ctx, installed, project, "all")));
  } else if (
    component === null &&
    hasRuntime &&
    after.state === "enabled" &&
    JSON.stringify(before.config) !== JSON.stringify(after.config)
  ) {
    // A runtime gets its config at initialize, so a running one is stopped and starts again with the new config on its next call.
    active.push(...(await collectActiveResources(ctx, installed, project, "runtime")));
  }
  const blocked = trustBlock(record, request);
  if (blocked === "untrusted") {
    warnings.push({
      code: "untrusted",
      message: `${record.name} is not trusted: applying this plan will fail and be rolled back until you run "gjc plugin trust ${record.name}".`,
    });
  } else if (blocked === "needs-retrust") {
    warnings.push({
      code: "trust_outdated",
      message: `${record.name} needs re-trust (what it can run changed since it was trusted: ${trustChangeSummary(record)}): applying this plan will fail and be rolled back until you review the change and run "gjc plugin trust ${record.name}" again.`,
    });
  }
  const missing = pendingAfter(record, component, after);
  if (missing.length > 0) {
    warnings.push({
      code: "missing_service",
      message: `${record.name} needs ${missing.join(", ")}, which this host does not provide: its runtime would stay pending, so this change cannot settle and will be rolled back.`,
    });
  }
  if (!record.enabled)
    warnings.push({
      code: "plugin_disabled",
      message: `${record.name} is disabled as a whole ("gjc plugin enable ${record.name}"); policy cannot run it until then.`,
    });

  const { records } = scanRecords(layout);
  const now = ctx.now();
  const token = newToken();
  const stored: StoredPlan = {
    schema_version: 1,
    token,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + PLAN_TTL_MS).toISOString(),
    config_revision: view.doc.revision,
    graph_revision: graphRevision(records),
    request: storedRequest(request),
  };
  sweepPlans(layout, now);
  savePlan(layout, stored);
  return {
    token,
    expiresAt: stored.expires_at,
    configRevision: stored.config_revision,
    graphRevision: stored.graph_revision,
    request,
    scope: scopeOf(project),
    noop: samePolicyContent(view.doc, nextDoc),
    before: summary(before),
    after: summary(after),
    affected: [request.plugin],
    activeResources: active,
    requiresConfirmation: active.length > 0,
    settles: missing.length === 0 && blocked === null,
    missingServices: missing,
    trustBlock: blocked,
    warnings,
  };
}

export interface ApplyResult {
  configRevision: number;
  graphRevision: string;
  affected: string[];
  changed: boolean;
  effective: { state: PolicyState; config: unknown; components: Record<string, PolicyState> };
  scope: ScopeRef;
}

function stale(message: string): GjcError {
  return new GjcError({
    code: "stale_plan",
    message: `The policy plan is stale: ${message}.`,
    hint: 'Run "gjc plugin policy plan …" again and apply the new token.',
    exit: ExitCode.refused,
  });
}

/**
 * Checks that the change reached the requested state. The written policy is re-read from disk
 * (what a fresh process would see), trust gates an explicit enable, and the runtime's settle
 * hooks get the last word. Throws the reason when it did not settle.
 */
async function settle(
  ctx: Context,
  layout: C2Layout,
  record: InstalledRecord,
  request: PlanRequest | { plugin: string; project: string | null },
  expected: EffectivePolicy,
): Promise<EffectivePolicy> {
  const reopened = openPolicy(layout);
  const project = request.project ?? undefined;
  const now = resolvePolicy(reopened, record, project);
  const where = project === undefined ? "the user scope" : `project ${project}`;
  if (reopened.recovery.kind !== "normal")
    throw new Error(`the written policy could not be read back (${reopened.recovery.kind})`);
  if (
    now.state !== expected.state ||
    !Bun.deepEquals(now.components, expected.components) ||
    !Bun.deepEquals(now.config, expected.config)
  ) {
    throw new Error(`\`${request.plugin}\` in ${where} was expected to be ${expected.state}, but it is ${now.state}`);
  }
  const explicitEnable = "state" in request && request.state === "enabled" && request.component === null;
  const blocked = "state" in request ? trustBlock(record, request) : null;
  if (blocked === "untrusted") {
    throw new Error(
      `bundle \`${request.plugin}\` is not trusted; approve it with "gjc plugin trust ${record.name}" before enabling its runtime`,
    );
  }
  if (blocked === "needs-retrust") {
    throw new Error(
      `bundle \`${request.plugin}\` needs re-trust: what it can run changed since it was trusted (${trustChangeSummary(record)}); review it and run "gjc plugin trust ${record.name}" again before enabling its runtime`,
    );
  }
  const pending = "state" in request ? pendingAfter(record, request.component, now) : [];
  if (pending.length > 0) {
    throw new Error(
      `\`${request.plugin}\` in ${where} was expected to be active, but it is pending: this host does not provide ${pending.map((p) => `\`${p}\``).join(", ")}`,
    );
  }
  if (explicitEnable && !record.enabled) {
    throw new Error(
      `\`${request.plugin}\` in ${where} was expected to be enabled, but the bundle is disabled as a whole`,
    );
  }
  await runSettle(ctx, { installed: toInstalled(layout, record), projectPath: project, effective: now });
  return now;
}

/** `gjc plugin policy apply <token>`. */
export async function applyPolicyPlan(ctx: Context, token: string): Promise<ApplyResult> {
  if (!isPlanToken(token)) {
    throw new GjcError({
      code: "invalid_plan_token",
      message: `${JSON.stringify(token)} is not a policy plan token.`,
      hint: 'Use the token printed by "gjc plugin policy plan".',
      exit: ExitCode.usage,
    });
  }
  const layout = c2Layout(ctx);
  return withC2Lock(ctx, "gjc plugin policy apply", async () => {
    cleanLeftovers(layout);
    const now = ctx.now();
    const plan = claimPlan(layout, token);
    sweepPlans(layout, now);
    if (Date.parse(plan.expires_at) <= now.getTime()) throw stale(`it expired at ${plan.expires_at}`);
    const view = openPolicy(layout);
    if (view.recovery.kind !== "normal") throw recoveryError(view, plan.request.installed_id);
    const { records } = scanRecords(layout);
    const graph = graphRevision(records);
    if (view.doc.revision !== plan.config_revision)
      throw stale(`the policy changed (revision ${plan.config_revision} → ${view.doc.revision})`);
    if (graph !== plan.graph_revision) throw stale("the installed bundles changed since it was made");
    const record = records.find((r) => r.id === plan.request.installed_id);
    if (!record) throw stale(`${plan.request.plugin} is no longer installed`);

    const request = requestOf(plan.request);
    const nextDoc = applyRequest(view.doc, request);
    const project = request.project ?? undefined;
    const expected = resolvePolicy({ doc: nextDoc, recovery: view.recovery }, record, project);
    const previousBytes = readPrimaryBytes(layout);
    const commit = commitPolicy(layout, view, nextDoc, now);
    crashPoint(ctx, "c2policy:written");
    let settled: EffectivePolicy;
    try {
      settled = await settle(ctx, layout, record, request, expected);
    } catch (error) {
      let rollback = "";
      if (commit.written) {
        try {
          restorePrimary(layout, previousBytes);
          await runSettle(ctx, {
            installed: toInstalled(layout, record),
            projectPath: project,
            effective: resolvePolicy(openPolicy(layout), record, project),
          });
        } catch (rollbackError) {
          rollback = `; rollback failed: ${(rollbackError as Error).message}`;
        }
      }
      throw new GjcError({
        code: "change_not_settled",
        message: `The policy change did not settle: ${(error as Error).message}${rollback}. The previous policy is back in force.`,
        hint: rollback
          ? "Run gjc plugin policy catalog to see the current state."
          : "Fix the cause and plan the change again.",
        exit: ExitCode.refused,
      });
    }
    markLastGood(layout, commit.doc);
    return {
      configRevision: commit.doc.revision,
      graphRevision: graph,
      affected: [request.plugin],
      changed: commit.written,
      effective: summary(settled),
      scope: scopeOf(project),
    };
  });
}

export interface ResetResult {
  plugin: string;
  scope: ScopeRef;
  configRevision: number;
  changed: boolean;
  recoveryBefore: Recovery;
  /** Where the corrupt primary was kept, when reset left recovery. */
  evidence?: string;
}

/**
 * `gjc plugin policy reset <plugin>`: drops the plugin's state, config and component overrides
 * at one scope. It is also the way out of recovery: it works on the last good copy (or the
 * empty safe-mode policy), writes a valid primary and keeps the corrupt one aside.
 */
export async function resetPolicy(ctx: Context, plugin: string, opts: { project?: string } = {}): Promise<ResetResult> {
  const layout = c2Layout(ctx);
  return withC2Lock(ctx, "gjc plugin policy reset", async () => {
    cleanLeftovers(layout);
    const view = openPolicy(layout);
    const record = findRecord(layout, plugin);
    const key = policyKey(record?.id ?? idFromPolicyKey(plugin));
    const project = opts.project === undefined ? undefined : normalizeProjectPath(ctx, opts.project);
    const known =
      record !== undefined || key in view.doc.user || Object.values(view.doc.projects).some((m) => key in m);
    if (!known && view.recovery.kind === "normal") throw unknownPlugin(plugin);
    if (!/^bundle:[a-z0-9][a-z0-9-]*$/.test(key)) throw unknownPlugin(plugin);
    const nextDoc = resetRequest(view.doc, key, project ?? null);
    const previousBytes = readPrimaryBytes(layout);
    const commit = commitPolicy(layout, view, nextDoc, ctx.now());
    if (record) {
      const expected = resolvePolicy({ doc: commit.doc, recovery: { kind: "normal" } }, record, project);
      try {
        await settle(ctx, layout, record, { plugin: key, project: project ?? null }, expected);
      } catch (error) {
        if (commit.written) restorePrimary(layout, previousBytes);
        throw new GjcError({
          code: "change_not_settled",
          message: `The policy reset did not settle: ${(error as Error).message}. The previous policy is back in force.`,
          exit: ExitCode.refused,
        });
      }
    }
    markLastGood(layout, commit.doc);
    return {
      plugin: key,
      scope: scopeOf(project),
      configRevision: commit.doc.revision,
      changed: commit.written,
      recoveryBefore: view.recovery,
      ...(commit.evidence ? { evidence: commit.evidence } : {}),
    };
  });
}
