/**
 * The C2 management plane's wire names (c2-notes §7.3-7.6): `gjc host --stdio` answers
 * `plugins.catalog`, `plugins.plan_change`, `plugins.apply_change` and `plugins.reset` in the
 * C2 protocol's snake_case keys and values, while the core and the CLI speak gjc's camelCase.
 * This is the one place that maps between them; each function writes its keys in the order the
 * plane has always sent them, so the wire stays byte-compatible.
 */
import type { CatalogEntry, CatalogResult, EffectiveStateReason, ScopeRef } from "../c2store/policy-catalog.ts";
import type { ApplyResult, PlanImpact, ResetResult, TrustBlock } from "../c2store/policy-plane.ts";
import type { StateSource } from "../c2store/policy.ts";
import type { Recovery } from "../c2store/policy-store.ts";
import type { ActiveResource } from "../c2store/hooks.ts";
import type { TrustState } from "../families/c2/trust.ts";
import type { CommandSurface } from "../families/c2/command-surface.ts";

const RECOVERY_KIND = {
  normal: "normal",
  "restored-last-good": "restored_last_good",
  "safe-mode": "safe_mode",
} as const satisfies Record<Recovery["kind"], string>;
const STATE_SOURCE = {
  default: "default",
  user: "user",
  project: "project",
  "bundle-disabled": "bundle_disabled",
  "safe-mode": "safe_mode",
} as const satisfies Record<StateSource, string>;
const TRUST_STATE = {
  untrusted: "untrusted",
  trusted: "trusted",
  "needs-retrust": "needs_retrust",
} as const satisfies Record<TrustState, string>;
// C2 names an outdated trust `trust_outdated` where it is a reason, like the refusal code.
const TRUST_BLOCK = { untrusted: "untrusted", "needs-retrust": "trust_outdated" } as const satisfies Record<
  TrustBlock,
  string
>;
const REASON = {
  disabled: "disabled",
  "bundle-disabled": "bundle_disabled",
  "safe-mode": "safe_mode",
  untrusted: "untrusted",
  "needs-retrust": "trust_outdated",
  "missing-dependencies": "missing_dependencies",
} as const satisfies Record<EffectiveStateReason, string>;
const CATEGORY = {
  connector: "connector",
  ui: "ui",
  runtime: "runtime",
  "language-server": "language_server",
  content: "content",
} as const satisfies Record<CatalogEntry["metadata"]["category"], string>;
const RESOURCE_KIND = {
  "plugin-scope": "plugin_scope",
  service: "service",
  process: "process",
} as const satisfies Record<ActiveResource["kind"], string>;

export function wireScope(scope: ScopeRef) {
  return scope.kind === "user"
    ? { kind: "user" as const }
    : { kind: "project" as const, project_path: scope.projectPath };
}

export function wireRecovery(r: Recovery) {
  return r.kind === "normal" ? { kind: "normal" as const } : { kind: RECOVERY_KIND[r.kind], error: r.error };
}

function wireCatalogEntry(e: CatalogEntry) {
  const m = e.metadata;
  return {
    id: e.id,
    installed_id: e.installedId,
    name: e.name,
    version: e.version,
    metadata: {
      origin: "third_party" as const,
      role: m.role,
      category: CATEGORY[m.category],
      scope_support: m.scopeSupport,
      essential: m.essential,
      default_enabled: m.defaultEnabled,
    },
    dependencies: e.dependencies,
    missing: e.missingServices,
    has_runtime: e.hasRuntime,
    language_servers: e.languageServers,
    bundle_enabled: e.bundleEnabled,
    trusted: e.trusted,
    trust_state: TRUST_STATE[e.trustState],
    state: e.state,
    config: e.config,
    components: e.components,
    effective: {
      state: e.effective.state,
      source: STATE_SOURCE[e.effective.source],
      config: e.effective.config,
      components: e.effective.components,
    },
    effective_state: {
      status: e.effectiveState.status,
      reason: e.effectiveState.reason === null ? null : REASON[e.effectiveState.reason],
    },
    commands: wireCommands(e.commands),
  };
}

/** Declared runtime commands as the plane lists them (catalog, plugins.list, commands.list). */
export function wireCommands(commands: readonly CommandSurface[]) {
  return commands.map((c) => ({ id: c.id, title: c.title, description: c.description, args_schema: c.argsSchema }));
}

/** `plugins.catalog`. */
export function wireCatalog(c: CatalogResult) {
  return {
    scope: wireScope(c.scope),
    config_revision: c.configRevision,
    graph_revision: c.graphRevision,
    recovery: wireRecovery(c.recovery),
    plugins: c.plugins.map(wireCatalogEntry),
    broken: c.broken,
    ...(c.foreign ? { foreign: c.foreign } : {}),
  };
}

/** `plugins.plan_change`. */
export function wirePlan(p: PlanImpact) {
  const r = p.request;
  return {
    // The plan's id, which plugins.apply_change takes back as `id` (c2-notes 7.4-7.5).
    id: p.token,
    expires_at: p.expiresAt,
    config_revision: p.configRevision,
    graph_revision: p.graphRevision,
    request: {
      plugin: r.plugin,
      installed_id: r.installedId,
      project: r.project,
      state: r.state,
      component: r.component,
      ...("config" in r ? { config: r.config } : {}),
    },
    scope: wireScope(p.scope),
    noop: p.noop,
    before: p.before,
    after: p.after,
    affected: p.affected,
    active_resources: p.activeResources.map((a) => ({
      plugin: a.plugin,
      kind: RESOURCE_KIND[a.kind],
      id: a.id,
      label: a.label,
    })),
    requires_confirmation: p.requiresConfirmation,
    settles: p.settles,
    missing: p.missingServices,
    trust_block: p.trustBlock === null ? null : TRUST_BLOCK[p.trustBlock],
    // The C2 plan carries warnings as text.
    warnings: p.warnings.map((w) => w.message),
  };
}

/** `plugins.apply_change`. */
export function wireApply(a: ApplyResult) {
  return {
    config_revision: a.configRevision,
    graph_revision: a.graphRevision,
    affected: a.affected,
    changed: a.changed,
    effective: a.effective,
    scope: wireScope(a.scope),
  };
}

/** `plugins.reset`. */
export function wireReset(r: ResetResult) {
  return {
    plugin: r.plugin,
    scope: wireScope(r.scope),
    config_revision: r.configRevision,
    changed: r.changed,
    recovery_before: wireRecovery(r.recoveryBefore),
    ...(r.evidence !== undefined ? { evidence: r.evidence } : {}),
  };
}
