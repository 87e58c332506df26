/**
 * `gjc plugin policy catalog` (c2-notes §7.3): every installed bundle with its explicit and
 * effective policy at one scope. Read-only, and kept apart from plan/apply so the catalog
 * loads no lock, plan or hook code (it is the hot path of a host asking "what is on").
 */
import type { Context } from "../core/context.ts";
import { graphRevision } from "./graph-revision.ts";
import { c2Layout } from "./paths.ts";
import { resolvePolicies, type EffectivePolicy } from "./policy.ts";
import type { PluginPolicy, PolicyDocument, PolicyState, RequestedState } from "./policy-doc.ts";
import { openPolicy, type PolicyView, type Recovery } from "./policy-store.ts";
import { normalizeProjectPath } from "./project-key.ts";
import { scanRecordFacts } from "./records-index.ts";
import type { BrokenRecord } from "./records.ts";
import type { RecordFacts } from "./record.ts";

export type ScopeRef = { kind: "user" } | { kind: "project"; project_path: string };

export interface CatalogEntry {
  id: string;
  installed_id: string;
  name: string;
  version: string;
  metadata: { origin: "third_party"; role: "extension"; scope_support: string[]; essential: false; default_enabled: true };
  has_runtime: boolean;
  language_servers: number;
  bundle_enabled: boolean;
  trusted: boolean;
  /** Explicit policy at this scope. */
  state: RequestedState;
  config: unknown;
  components: Record<string, PolicyState>;
  /** What is in force at this scope after inheritance. */
  effective: { state: PolicyState; source: EffectivePolicy["stateSource"]; config: unknown; components: Record<string, PolicyState> };
  /** Whether the runtime may start on first command: enabled, trusted, with a runtime. */
  effective_state: { status: "enabled" | "disabled" | "untrusted"; reason: string | null };
}

export interface CatalogResult {
  scope: ScopeRef;
  config_revision: number;
  graph_revision: string;
  recovery: Recovery;
  plugins: CatalogEntry[];
  broken: BrokenRecord[];
}

export function scopeOf(project: string | undefined): ScopeRef {
  return project === undefined ? { kind: "user" } : { kind: "project", project_path: project };
}

/**
 * The catalog entries of all bundles. One loop with the entry built inline, for the reason
 * resolvePolicies gives: a helper called once per bundle would be JIT-compiled on the way.
 */
function catalogEntries(view: PolicyView, records: readonly RecordFacts[], project: string | undefined): CatalogEntry[] {
  const resolved = resolvePolicies(view, records, project);
  const doc: PolicyDocument = view.doc;
  const entries: CatalogEntry[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    const effective = resolved[i];
    // The policy written at this scope; a user-only runtime shows its user policy in a project.
    const key = effective.pluginId;
    const explicit: PluginPolicy = (project !== undefined && effective.projectScoped ? doc.projects[project]?.[key] : doc.user[key]) ?? {};
    const runtime = record.manifest.codetwo.runtime;
    const needsTrust = runtime !== null || record.manifest.codetwo.languageServers.length > 0;
    let status: CatalogEntry["effective_state"]["status"] = "enabled";
    let reason: string | null = null;
    if (effective.state === "disabled") {
      status = "disabled";
      reason = effective.stateSource === "bundle_disabled" ? "bundle_disabled" : effective.stateSource === "safe_mode" ? "safe_mode" : "disabled";
    } else if (needsTrust && !record.trusted) {
      status = "untrusted";
      reason = "untrusted";
    }
    entries.push({
      id: key,
      installed_id: record.id,
      name: record.name,
      version: record.version,
      metadata: { origin: "third_party", role: "extension", scope_support: runtime?.scopeSupport ?? ["user"], essential: false, default_enabled: true },
      has_runtime: runtime !== null,
      language_servers: record.manifest.codetwo.languageServers.length,
      bundle_enabled: record.enabled,
      trusted: record.trusted,
      state: explicit.state ?? "inherit",
      config: explicit.config ?? null,
      components: explicit.components ?? {},
      effective: { state: effective.state, source: effective.stateSource, config: effective.config, components: effective.components },
      effective_state: { status, reason },
    });
  }
  return entries;
}

/** `gjc plugin policy catalog`: every installed bundle and its policy at one scope. Read-only. */
export function policyCatalog(ctx: Context, opts: { project?: string } = {}): CatalogResult {
  const layout = c2Layout(ctx);
  const project = opts.project === undefined ? undefined : normalizeProjectPath(ctx, opts.project);
  const view = openPolicy(layout);
  // The records index when it matches the store, else the full, fail-closed read.
  const { records, broken } = scanRecordFacts(layout);
  const plugins = catalogEntries(view, records, project);
  return {
    scope: scopeOf(project),
    config_revision: view.doc.revision,
    graph_revision: graphRevision(records),
    recovery: view.recovery,
    plugins,
    broken,
  };
}

