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

export type StateSource = "default" | "user" | "project" | "bundle-disabled" | "safe-mode";

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
  const { ui, connectors, languageServers } = manifest.codetwo;
  return [
    ...ui.map((u) => `${key}:ui:${u.id}`),
    ...connectors.map((c) => `${key}:connector:${c.id}`),
    ...languageServers.map((l) => `${key}:lsp:${l.id}`),
  ];
}

export function supportsProjectScope(manifest: RecordFacts["manifest"]): boolean {
  return manifest.codetwo.runtime?.scopeSupport.includes("project") ?? false;
}

/** Where the state comes from, the later rule winning: default, user, project, safe mode, a disabled bundle. */
function resolveState(
  view: PolicyView,
  record: RecordFacts,
  user: PluginPolicy,
  project: PluginPolicy,
): { state: PolicyState; stateSource: StateSource } {
  if (!record.enabled) return { state: "disabled", stateSource: "bundle-disabled" };
  if (view.recovery.kind === "safe-mode") return { state: "disabled", stateSource: "safe-mode" };
  if (project.state) return { state: project.state, stateSource: "project" };
  if (user.state) return { state: user.state, stateSource: "user" };
  return { state: "enabled", stateSource: "default" };
}

/** Pure resolution over an opened policy view; `projectPath` must already be normalized. */
export function resolvePolicy(view: PolicyView, record: RecordFacts, projectPath?: string): EffectivePolicy {
  const doc: PolicyDocument = view.doc;
  const key = policyKey(record.id);
  const user: PluginPolicy = doc.user[key] ?? {};
  const projectScoped = projectPath !== undefined && supportsProjectScope(record.manifest);
  const project: PluginPolicy = projectScoped ? (doc.projects[projectPath]?.[key] ?? {}) : {};
  const config = project.config !== undefined ? project.config : user.config !== undefined ? user.config : null;
  // The bundle's own components plus any the user or project policy names, in code-unit order.
  const ids = [
    ...new Set([
      ...bundleComponentIds(record.id, record.manifest),
      ...Object.keys(user.components ?? {}),
      ...Object.keys(project.components ?? {}),
    ]),
  ].sort();
  const components = Object.fromEntries(
    ids.map((c) => [c, project.components?.[c] ?? user.components?.[c] ?? "enabled"]),
  ) as Record<string, PolicyState>;
  return {
    pluginId: key,
    ...resolveState(view, record, user, project),
    config,
    components,
    ...(projectPath !== undefined && { projectPath }),
    projectScoped,
    trusted: record.trusted,
    recovery: view.recovery.kind,
  } as EffectivePolicy;
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
    throw new GjcError({
      code: "not_installed",
      message: `No C2 bundle ${pluginId} is installed.`,
      hint: 'Run "gjc plugin list" to see the installed bundles.',
    });
  }
  const view = openPolicy(layout);
  return resolvePolicy(view, record, projectPath === undefined ? undefined : normalizeProjectPath(ctx, projectPath));
}
