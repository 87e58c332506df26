/**
 * Effective policy of one bundle runtime in one scope (c2-notes §7.1, §7.7): what the runtime
 * supervisor consults before it starts anything. Resolution order:
 *   state:      bundle record disabled → disabled; safe mode → disabled;
 *               project policy (project-capable runtimes only) → user policy → default enabled
 *   config:     project config → user config → null
 *   components: project override → user override → enabled
 * Trust is a separate decision read from the record (`trusted`); a runtime runs only when the
 * state is enabled AND the bundle is trusted.
 */
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { c2Layout, policyKey } from "./paths.ts";
import type { PluginPolicy, PolicyDocument, PolicyState } from "./policy-doc.ts";
import { openPolicy, type PolicyView, type Recovery } from "./policy-store.ts";
import { normalizeProjectPath, projectHash } from "./project-key.ts";
import { findRecord } from "./records.ts";
import type { RecordFacts } from "./record.ts";

export { normalizeProjectPath, projectHash };

export type StateSource = "default" | "user" | "project" | "bundle_disabled" | "safe_mode";

export interface EffectivePolicy {
  /** `bundle:<installed id>`. */
  pluginId: string;
  state: PolicyState;
  /** Where the state came from, so a UI can say why. */
  stateSource: StateSource;
  config: unknown;
  /** Every known component of the bundle (`bundle:<id>:<kind>:<local id>`) and its state. */
  components: Record<string, PolicyState>;
  /** The normalized project path the answer is for; undefined for the user scope. */
  projectPath?: string;
  /** False when the runtime is user-only and the project's policy was therefore not consulted. */
  projectScoped: boolean;
  trusted: boolean;
  recovery: Recovery["kind"];
}

/** Component policy ids a bundle exposes: its UI actions, connectors and language servers. */
export function bundleComponentIds(id: string, manifest: RecordFacts["manifest"]): string[] {
  const key = policyKey(id);
  const ids: string[] = [];
  const { ui, connectors, languageServers } = manifest.codetwo;
  for (let i = 0; i < ui.length; i++) ids.push(`${key}:ui:${ui[i].id}`);
  for (let i = 0; i < connectors.length; i++) ids.push(`${key}:connector:${connectors[i].id}`);
  for (let i = 0; i < languageServers.length; i++) ids.push(`${key}:lsp:${languageServers[i].id}`);
  return ids;
}

export function supportsProjectScope(manifest: RecordFacts["manifest"]): boolean {
  return (manifest.codetwo.runtime?.scopeSupport.indexOf("project") ?? -1) !== -1;
}

/** Pure resolution over an opened policy view; `projectPath` must already be normalized. */
export function resolvePolicy(view: PolicyView, record: RecordFacts, projectPath?: string): EffectivePolicy {
  return resolvePolicies(view, [record], projectPath)[0];
}

/**
 * resolvePolicy for many bundles (the catalog resolves every installed one in a fresh
 * process). One loop that calls no helper of ours per bundle: JSC compiles a function once it
 * has run a few dozen times, and for a 50-bundle catalog those compilations (of this body,
 * policyKey, the component ids) cost more than the resolving. So policyKey, supportsProjectScope
 * and bundleComponentIds are written out here; keep them in step.
 */
export function resolvePolicies(view: PolicyView, records: readonly RecordFacts[], projectPath?: string): EffectivePolicy[] {
  const doc: PolicyDocument = view.doc;
  const results: EffectivePolicy[] = [];
  for (let r = 0; r < records.length; r++) {
    const record = records[r];
    const key = record.id.startsWith("bundle:") ? record.id : `bundle:${record.id}`;
    const user: PluginPolicy = doc.user[key] ?? {};
    const projectScoped = projectPath !== undefined && (record.manifest.codetwo.runtime?.scopeSupport.indexOf("project") ?? -1) !== -1;
    const project: PluginPolicy = projectScoped ? (doc.projects[projectPath]?.[key] ?? {}) : {};

    let state: PolicyState = "enabled";
    let stateSource: StateSource = "default";
    if (user.state) {
      state = user.state;
      stateSource = "user";
    }
    if (project.state) {
      state = project.state;
      stateSource = "project";
    }
    if (view.recovery.kind === "safe_mode") {
      state = "disabled";
      stateSource = "safe_mode";
    }
    if (!record.enabled) {
      state = "disabled";
      stateSource = "bundle_disabled";
    }

    const config = project.config !== undefined ? project.config : user.config !== undefined ? user.config : null;

    // The bundle's own components plus any the user or project policy names, in code-unit order.
    const ids: string[] = [];
    const { ui, connectors, languageServers } = record.manifest.codetwo;
    for (let i = 0; i < ui.length; i++) ids.push(`${key}:ui:${ui[i].id}`);
    for (let i = 0; i < connectors.length; i++) ids.push(`${key}:connector:${connectors[i].id}`);
    for (let i = 0; i < languageServers.length; i++) ids.push(`${key}:lsp:${languageServers[i].id}`);
    if (user.components !== undefined) {
      const named = Object.keys(user.components);
      for (let i = 0; i < named.length; i++) if (ids.indexOf(named[i]) === -1) ids.push(named[i]);
    }
    if (project.components !== undefined) {
      const named = Object.keys(project.components);
      for (let i = 0; i < named.length; i++) if (ids.indexOf(named[i]) === -1) ids.push(named[i]);
    }
    ids.sort();
    const components: Record<string, PolicyState> = {};
    for (let i = 0; i < ids.length; i++) {
      const c = ids[i];
      components[c] = project.components?.[c] ?? user.components?.[c] ?? "enabled";
    }

    // Assigned in this order (projectPath only when given) so the JSON shape stays as it was.
    const effective = { pluginId: key, state, stateSource, config, components } as EffectivePolicy;
    if (projectPath !== undefined) effective.projectPath = projectPath;
    effective.projectScoped = projectScoped;
    effective.trusted = record.trusted;
    effective.recovery = view.recovery.kind;
    results.push(effective);
  }
  return results;
}

/**
 * The effective policy of an installed bundle (`<id>`, `bundle:<id>` or its name) for the
 * user scope, or for a project when `projectPath` is given (normalized here). Synchronous:
 * it reads two small files and never writes.
 */
export function effectivePolicy(ctx: Context, pluginId: string, projectPath?: string): EffectivePolicy {
  const layout = c2Layout(ctx);
  const record = findRecord(layout, pluginId);
  if (!record) {
    throw new GjcError({ code: "not_installed", message: `No C2 bundle ${pluginId} is installed.`, hint: 'Run "gjc plugin list" to see the installed bundles.' });
  }
  const view = openPolicy(layout);
  return resolvePolicy(view, record, projectPath === undefined ? undefined : normalizeProjectPath(ctx, projectPath));
}
