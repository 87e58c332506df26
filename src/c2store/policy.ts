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
import type { C2Manifest } from "../families/c2/types.ts";
import { c2Layout, policyKey } from "./paths.ts";
import type { PluginPolicy, PolicyDocument, PolicyState } from "./policy-doc.ts";
import { openPolicy, type PolicyView, type Recovery } from "./policy-store.ts";
import { normalizeProjectPath, projectHash } from "./project-key.ts";
import { findRecord } from "./records.ts";
import type { InstalledRecord } from "./record.ts";

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
export function bundleComponentIds(id: string, manifest: C2Manifest): string[] {
  const key = policyKey(id);
  return [
    ...manifest.codetwo.ui.map((u) => `${key}:ui:${u.id}`),
    ...manifest.codetwo.connectors.map((c) => `${key}:connector:${c.id}`),
    ...manifest.codetwo.languageServers.map((l) => `${key}:lsp:${l.id}`),
  ];
}

export function supportsProjectScope(manifest: C2Manifest): boolean {
  return manifest.codetwo.runtime?.scopeSupport.includes("project") ?? false;
}

/** Pure resolution over an opened policy view; `projectPath` must already be normalized. */
export function resolvePolicy(view: PolicyView, record: InstalledRecord, projectPath?: string): EffectivePolicy {
  const key = policyKey(record.id);
  const doc: PolicyDocument = view.doc;
  const user: PluginPolicy = doc.user[key] ?? {};
  const projectScoped = projectPath !== undefined && supportsProjectScope(record.manifest);
  const project: PluginPolicy = projectScoped ? (doc.projects[projectPath]?.[key] ?? {}) : {};

  let state: PolicyState = "enabled";
  let stateSource: StateSource = "default";
  if (user.state) [state, stateSource] = [user.state, "user"];
  if (project.state) [state, stateSource] = [project.state, "project"];
  if (view.recovery.kind === "safe_mode") [state, stateSource] = ["disabled", "safe_mode"];
  if (!record.enabled) [state, stateSource] = ["disabled", "bundle_disabled"];

  const config = project.config !== undefined ? project.config : user.config !== undefined ? user.config : null;

  const components: Record<string, PolicyState> = {};
  const ids = new Set([...bundleComponentIds(record.id, record.manifest), ...Object.keys(user.components ?? {}), ...Object.keys(project.components ?? {})]);
  for (const c of [...ids].sort()) components[c] = project.components?.[c] ?? user.components?.[c] ?? "enabled";

  return {
    pluginId: key,
    state,
    stateSource,
    config,
    components,
    ...(projectPath !== undefined ? { projectPath } : {}),
    projectScoped,
    trusted: record.trusted,
    recovery: view.recovery.kind,
  };
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
