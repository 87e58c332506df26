import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { C2UiAction } from "../families/c2/types.ts";
import { validateHostActions, type HostActionItem } from "./host-actions.ts";
import type { InvokeOptions } from "./runtime-instance.ts";
import { availabilityOf, type Availability, type AvailabilityReason } from "./availability.ts";
import { runtimeError } from "./runtime-errors.ts";
import type { InvokeResult, RealmTarget, RuntimeHost } from "./runtime-host.ts";

export interface UiListEntry {
  plugin: string;
  pluginName: string;
  id: string;
  componentId: string;
  slot: string;
  label: string;
  description: string;
  command: string;
  order: number;
  /** ready, or why the action is not offered (untrusted, disabled, quarantined, pending, …). */
  status: Availability;
  /** Why it is not ready: the refusal's error code and message (empty when ready). */
  reasons: AvailabilityReason[];
}

export const uiComponentId = (bundleId: string, uiId: string) => `bundle:${bundleId}:ui:${uiId}`;

/** Every UI contribution of the installed bundles (or one), sorted by slot, order, label. */
export function listUi(host: RuntimeHost, opts: { plugin?: string; project?: string } = {}): UiListEntry[] {
  const bundles = opts.plugin !== undefined ? [host.findBundle(opts.plugin)] : host.bundles();
  const out: UiListEntry[] = [];
  for (const bundle of bundles) {
    let refusal: AvailabilityReason | undefined;
    let target: RealmTarget | undefined;
    try {
      target = host.realmFor(bundle, opts.project);
    } catch (e) {
      refusal = {
        code: e instanceof GjcError ? e.code : "internal_error",
        message: e instanceof Error ? e.message : String(e),
      };
    }
    for (const ui of bundle.manifest.codetwo.ui) {
      const componentId = uiComponentId(bundle.id, ui.id);
      const disabled = target !== undefined && host.componentDisabled(target, componentId);
      out.push({
        plugin: bundle.id,
        pluginName: bundle.name,
        id: ui.id,
        componentId,
        slot: ui.slot,
        label: ui.label,
        description: ui.description,
        command: ui.command,
        order: ui.order,
        ...(disabled
          ? {
              status: "disabled" as const,
              reasons: [{ code: "component_disabled", message: `${componentId} is disabled by policy` }],
            }
          : refusal
            ? { status: availabilityOf(refusal.code), reasons: [refusal] }
            : { status: "ready" as const, reasons: [] }),
      });
    }
  }
  return out.sort(
    (a, b) =>
      a.slot.localeCompare(b.slot) ||
      a.order - b.order ||
      a.label.localeCompare(b.label) ||
      a.plugin.localeCompare(b.plugin),
  );
}

/** Ownership, trust, realm and component checks for one UI contribution (c2-notes §6.5). */
export function uiTarget(
  host: RuntimeHost,
  plugin: string,
  contributionId: string,
  project?: string,
): { target: RealmTarget; ui: C2UiAction } {
  const bundle = host.findBundle(plugin);
  const ui = bundle.manifest.codetwo.ui.find((u) => u.id === contributionId);
  if (!ui) {
    const ids = bundle.manifest.codetwo.ui.map((u) => u.id);
    throw runtimeError(
      "unknown_contribution",
      `${bundle.name} has no UI contribution ${contributionId}.`,
      ids.length > 0 ? `Its UI contributions: ${ids.join(", ")}.` : `${bundle.name} declares no UI contributions.`,
    );
  }
  const target = host.ownedTarget(bundle, ui.command, `UI contribution ${ui.id}`, project);
  const componentId = uiComponentId(bundle.id, ui.id);
  if (host.componentDisabled(target, componentId)) {
    throw runtimeError(
      "component_disabled",
      `The UI contribution ${componentId} is disabled by policy.`,
      `Change it with "gjc plugin policy plan ${bundle.name} --component ui:${ui.id} --state enabled".`,
      undefined,
      ExitCode.refused,
    );
  }
  return { target, ui };
}

/** Activates a UI action: its command gets `{context, input}` (context `{}` when not an object). */
export async function invokeUi(
  host: RuntimeHost,
  plugin: string,
  contributionId: string,
  opts: InvokeOptions & { context?: unknown; project?: string } = {},
): Promise<InvokeResult & { contribution: string; slot: string }> {
  const { target, ui } = uiTarget(host, plugin, contributionId, opts.project);
  const context =
    opts.context !== null && typeof opts.context === "object" && !Array.isArray(opts.context) ? opts.context : {};
  const r = await host.invokeTarget(target, ui.command, { context, input: ui.input ?? null }, opts);
  return { ...r, contribution: ui.id, slot: ui.slot };
}

const cacheKey = (target: RealmTarget, ui: C2UiAction) => `${target.bundle.id}:${ui.id}@${target.projectPath ?? ""}`;

/** `host.actions` render: the document is validated whole and cached for invoke. */
export async function renderHostActions(
  host: RuntimeHost,
  plugin: string,
  contributionId: string,
  opts: InvokeOptions & { project?: string } = {},
): Promise<{ plugin: string; contribution: string; items: HostActionItem[] }> {
  const { target, ui } = hostActionsTarget(host, plugin, contributionId, opts.project);
  const r = await host.invokeTarget(
    target,
    ui.command,
    { context: { operation: "render" }, input: ui.input ?? null },
    opts,
  );
  const checked = validateHostActions(r.result);
  if (!checked.ok) {
    host.actionCache.delete(cacheKey(target, ui));
    throw runtimeError(
      "invalid_host_actions",
      `${target.bundle.name} returned a host.actions document that was rejected: ${checked.problem}; nothing is rendered.`,
      "Fix the plugin's render answer (c2 standard: host.actions).",
      { plugin: target.bundle.id, contribution: ui.id },
    );
  }
  host.actionCache.set(cacheKey(target, ui), checked.items);
  return { plugin: target.bundle.id, contribution: ui.id, items: checked.items };
}

/** `host.actions` invoke: calls the same contribution with the cached input of one rendered item. */
export async function invokeHostAction(
  host: RuntimeHost,
  plugin: string,
  contributionId: string,
  itemId: string,
  opts: InvokeOptions & { project?: string; renderIfMissing?: boolean } = {},
): Promise<InvokeResult & { contribution: string; item: string }> {
  const { target, ui } = hostActionsTarget(host, plugin, contributionId, opts.project);
  let items = host.actionCache.get(cacheKey(target, ui));
  if (!items && opts.renderIfMissing) items = (await renderHostActions(host, plugin, contributionId, opts)).items;
  if (!items)
    throw runtimeError(
      "not_rendered",
      `${ui.id} of ${target.bundle.name} has not been rendered in this realm.`,
      "Render the host actions first (operation render).",
    );
  const item = items.find((i) => i.id === itemId);
  if (!item)
    throw runtimeError(
      "unknown_action",
      `The rendered host actions of ${target.bundle.name} have no item ${itemId}.`,
      `Rendered items: ${items.map((i) => i.id).join(", ") || "none"}.`,
    );
  if (!item.enabled)
    throw runtimeError(
      "action_disabled",
      `The host action ${itemId} of ${target.bundle.name} is rendered as disabled.`,
      "Render again once the plugin enables it.",
    );
  const r = await host.invokeTarget(
    target,
    ui.command,
    { context: { operation: "invoke", input: item.input }, input: ui.input ?? null },
    opts,
  );
  return { ...r, contribution: ui.id, item: item.id };
}

export type UiActivation =
  | ({ kind: "render" } & Awaited<ReturnType<typeof renderHostActions>>)
  | ({ kind: "invoke" } & (Awaited<ReturnType<typeof invokeUi>> | Awaited<ReturnType<typeof invokeHostAction>>));

/**
 * `gjc plugin ui invoke`: a host.actions contribution is rendered, or one rendered item is
 * invoked (rendered first when this realm has not rendered it yet); any other UI action is
 * invoked with the caller's context.
 */
export async function activateUi(
  host: RuntimeHost,
  plugin: string,
  contributionId: string,
  opts: InvokeOptions & { project?: string; item?: string; context?: unknown } = {},
): Promise<UiActivation> {
  const { item, context, ...rest } = opts;
  const { ui } = uiTarget(host, plugin, contributionId, opts.project);
  if (ui.slot !== "host.actions")
    return { kind: "invoke", ...(await invokeUi(host, plugin, contributionId, { ...rest, context })) };
  if (item === undefined) return { kind: "render", ...(await renderHostActions(host, plugin, contributionId, rest)) };
  return {
    kind: "invoke",
    ...(await invokeHostAction(host, plugin, contributionId, item, { ...rest, renderIfMissing: true })),
  };
}

function hostActionsTarget(host: RuntimeHost, plugin: string, contributionId: string, project?: string) {
  const found = uiTarget(host, plugin, contributionId, project);
  if (found.ui.slot !== "host.actions") {
    throw runtimeError(
      "not_host_actions",
      `${found.ui.id} is a ${found.ui.slot} action, not host.actions; it has no render step.`,
      "Invoke it directly.",
      undefined,
      ExitCode.usage,
    );
  }
  return found;
}
