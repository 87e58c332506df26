/**
 * `gjc plugin policy catalog` (c2-notes §7.3): every installed bundle with its explicit and
 * effective policy at one scope. Read-only, and kept apart from plan/apply so the catalog
 * loads no lock, plan or hook code (it is the hot path of a host asking "what is on").
 */
import { trustStateOf, type TrustState } from "../families/c2/trust.ts";
import { missingServices } from "../families/c2/host-services.ts";
import type { Context } from "../core/context.ts";
import { commandSurface, type CommandSurface } from "../families/c2/command-surface.ts";
import { graphRevision } from "./graph-revision.ts";
import { c2Layout } from "./paths.ts";
import { resolvePolicy, type EffectivePolicy } from "./policy.ts";
import type { PluginPolicy, PolicyDocument, PolicyState, RequestedState } from "./policy-doc.ts";
import { openPolicy, type PolicyView, type Recovery } from "./policy-store.ts";
import { normalizeProjectPath } from "./project-key.ts";
import { scanRecordFacts } from "./records-index.ts";
import type { BrokenRecord } from "./records.ts";
import type { RecordFacts } from "./record.ts";

export type ScopeRef = { kind: "user" } | { kind: "project"; projectPath: string };

export interface CatalogEntry {
  id: string;
  installedId: string;
  name: string;
  version: string;
  /**
   * The standard's checklist metadata. Every installed bundle is a third-party extension that
   * is on by default and never essential (the management plane itself is gjc, not a bundle).
   * `category` is derived from what the bundle contributes (see bundleCategory).
   */
  metadata: {
    origin: "third-party";
    role: "extension";
    category: BundleCategory;
    scopeSupport: string[];
    essential: false;
    defaultEnabled: true;
  };
  /** Declared service dependencies: `runtime.inject` (required) and `runtime.optionalInject`. */
  dependencies: { required: string[]; optional: string[] };
  /** Required services this host does not provide; non-empty means the runtime is pending. */
  missingServices: string[];
  hasRuntime: boolean;
  languageServers: number;
  bundleEnabled: boolean;
  trusted: boolean;
  /** untrusted | trusted | needs-retrust (src/families/c2/trust.ts). */
  trustState: TrustState;
  /** Explicit policy at this scope. */
  state: RequestedState;
  config: unknown;
  components: Record<string, PolicyState>;
  /** What is in force at this scope after inheritance. */
  effective: {
    state: PolicyState;
    source: EffectivePolicy["stateSource"];
    config: unknown;
    components: Record<string, PolicyState>;
  };
  /** Whether the runtime may start on first command: enabled, trusted, with a runtime. */
  effectiveState: { status: "enabled" | "disabled" | "untrusted" | "pending"; reason: EffectiveStateReason | null };
  /** The runtime commands the bundle declares, with title, description and argsSchema. */
  commands: CommandSurface[];
}

/** Why the runtime is not enabled: the policy, a disabled bundle, safe mode, trust, or a missing service. */
export type EffectiveStateReason =
  | "disabled"
  | "bundle-disabled"
  | "safe-mode"
  | "untrusted"
  | "needs-retrust"
  | "missing-dependencies";

export type BundleCategory = "connector" | "ui" | "runtime" | "language-server" | "content";

/**
 * A 1.2.0 manifest has no category field (catalog entries have a free-text one that is not kept
 * with the install), so the catalog names the most specific thing the bundle contributes.
 */
export function bundleCategory(codetwo: RecordFacts["manifest"]["codetwo"]): BundleCategory {
  if (codetwo.connectors.length > 0) return "connector";
  if (codetwo.ui.length > 0) return "ui";
  if (codetwo.runtime) return "runtime";
  if (codetwo.languageServers.length > 0) return "language-server";
  return "content";
}

export interface CatalogResult {
  scope: ScopeRef;
  configRevision: number;
  graphRevision: string;
  recovery: Recovery;
  plugins: CatalogEntry[];
  broken: BrokenRecord[];
  /** Bundles the C2 app installed in the shared data directory: listed, never governed by gjc. */
  foreign?: ForeignCatalogEntry[];
}

export interface ForeignCatalogEntry {
  id: string;
  name: string;
  version: string;
  writer: "c2-app" | "unknown";
  enabled: boolean;
  trusted: boolean;
}

export function scopeOf(project: string | undefined): ScopeRef {
  return project === undefined ? { kind: "user" } : { kind: "project", projectPath: project };
}

/** The catalog entries of all bundles. */
function catalogEntries(
  view: PolicyView,
  records: readonly RecordFacts[],
  project: string | undefined,
): CatalogEntry[] {
  const doc: PolicyDocument = view.doc;
  return records.map((record) => {
    const effective = resolvePolicy(view, record, project);
    // The policy written at this scope; a user-only runtime shows its user policy in a project.
    const key = effective.pluginId;
    const explicit: PluginPolicy =
      (project !== undefined && effective.projectScoped ? doc.projects[project]?.[key] : doc.user[key]) ?? {};
    const runtime = record.manifest.codetwo.runtime;
    const needsTrust = runtime !== null || record.manifest.codetwo.languageServers.length > 0;
    const missing = runtime ? missingServices(runtime.inject ?? []) : [];
    let status: CatalogEntry["effectiveState"]["status"] = "enabled";
    let reason: EffectiveStateReason | null = null;
    if (effective.state === "disabled") {
      status = "disabled";
      reason =
        effective.stateSource === "bundle-disabled" || effective.stateSource === "safe-mode"
          ? effective.stateSource
          : "disabled";
    } else if (needsTrust && trustStateOf(record) !== "trusted") {
      // Trusted before an upgrade that changed its capabilities counts as untrusted until trusted again.
      status = "untrusted";
      reason = record.trusted ? "needs-retrust" : "untrusted";
    } else if (missing.length > 0) {
      // Pending is not enabled: the runtime waits for a service this host lacks (DESIGN 6a).
      status = "pending";
      reason = "missing-dependencies";
    }
    return {
      id: key,
      installedId: record.id,
      name: record.name,
      version: record.version,
      metadata: {
        origin: "third-party",
        role: "extension",
        category: bundleCategory(record.manifest.codetwo),
        scopeSupport: runtime?.scopeSupport ?? ["user"],
        essential: false,
        defaultEnabled: true,
      },
      dependencies: {
        required: runtime
          ? ["extensions-runtime", ...(runtime.inject ?? []).filter((s) => s !== "extensions-runtime")]
          : [],
        optional: runtime ? [...(runtime.optionalInject ?? [])] : [],
      },
      missingServices: missing,
      hasRuntime: runtime !== null,
      languageServers: record.manifest.codetwo.languageServers.length,
      bundleEnabled: record.enabled,
      trusted: record.trusted,
      trustState: trustStateOf(record),
      state: explicit.state ?? "inherit",
      config: explicit.config ?? null,
      components: explicit.components ?? {},
      effective: {
        state: effective.state,
        source: effective.stateSource,
        config: effective.config,
        components: effective.components,
      },
      effectiveState: { status, reason },
      commands: commandSurface(record.manifest.codetwo.commands),
    };
  });
}

/** `gjc plugin policy catalog`: every installed bundle and its policy at one scope. Read-only. */
export function policyCatalog(ctx: Context, opts: { project?: string } = {}): CatalogResult {
  const layout = c2Layout(ctx);
  const project = opts.project === undefined ? undefined : normalizeProjectPath(ctx, opts.project);
  const view = openPolicy(layout);
  // The records index when it matches the store, else the full, fail-closed read.
  const { records, broken, foreign } = scanRecordFacts(layout);
  const plugins = catalogEntries(view, records, project);
  return {
    scope: scopeOf(project),
    configRevision: view.doc.revision,
    graphRevision: graphRevision(records),
    recovery: view.recovery,
    plugins,
    broken,
    ...(foreign.length > 0
      ? {
          foreign: foreign.map((f) => ({
            id: f.id,
            name: f.name ?? f.id,
            version: f.version ?? "",
            writer: f.writer,
            enabled: f.enabled ?? false,
            trusted: f.trusted ?? false,
          })),
        }
      : {}),
  };
}

/**
 * The two revisions a long-running host compares to notice a change made by another gjc
 * process: the policy's config revision and the installed set's graph revision.
 */
export function storeRevisions(ctx: Context): {
  configRevision: number;
  graphRevision: string;
  recovery: Recovery["kind"];
} {
  const layout = c2Layout(ctx);
  const view = openPolicy(layout);
  return {
    configRevision: view.doc.revision,
    graphRevision: graphRevision(scanRecordFacts(layout).records),
    recovery: view.recovery.kind,
  };
}
