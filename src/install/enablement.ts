import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { didYouMean } from "../core/suggest.ts";
import { scopeFlag, scopeRoot } from "../families/gjc/layout.ts";
import { notInstalled } from "./not-installed.ts";
import { readRegistry, writeRegistry } from "./registry.ts";
import { entrySurfaces, type RegistryEntry, type Scope } from "./registry-types.ts";
import { withScopes } from "./scope-session.ts";

export interface EnablementResult {
  name: string;
  scope: Scope;
  surface?: string;
  enabled: boolean;
  /** False when it already was in that state (nothing was written). */
  changed: boolean;
}

/** Applies the change to a copy of the entry, or throws the refusal; returns undefined for a no-op. */
function applyChange(
  entry: RegistryEntry,
  enabled: boolean,
  surface: string | undefined,
  now: string,
): RegistryEntry | undefined {
  const quarantine = entry.quarantine ?? [];
  const verifyHint = `Run "gjc plugin verify ${entry.name}" after fixing the cause, or reinstall the bundle; a clean result clears the quarantine.`;
  if (surface === undefined) {
    if (enabled && quarantine.length > 0) {
      throw new GjcError({
        code: "quarantined",
        message: `${entry.name} is quarantined (${quarantine[0].code}: ${quarantine[0].message}) and cannot be enabled.`,
        hint: verifyHint,
        exit: ExitCode.refused,
      });
    }
    if (entry.enabled === enabled) return undefined;
    return { ...entry, enabled, updatedAt: now };
  }
  const ids = entrySurfaces(entry).map((s) => s.extensionId);
  if (!ids.includes(surface)) {
    throw new GjcError({
      code: "surface_unknown",
      message: `${entry.name} has no surface ${JSON.stringify(surface)}.${didYouMean(surface, ids)}`,
      hint: `Run "gjc plugin inspect ${entry.name} ${scopeFlag(entry.scope)}" to see its surface ids.`,
      exit: ExitCode.failed,
    });
  }
  const blocking = quarantine.find((q) => q.surfaceId === surface || q.surfaceId === `plugin:${entry.name}`);
  if (enabled && blocking) {
    throw new GjcError({
      code: "quarantined",
      message: `Surface ${surface} of ${entry.name} is quarantined (${blocking.code}: ${blocking.message}) and cannot be enabled.`,
      hint: verifyHint,
      exit: ExitCode.refused,
    });
  }
  const disabled = new Set(entry.disabledSurfaceIds);
  if (disabled.has(surface) === !enabled) return undefined;
  if (enabled) disabled.delete(surface);
  else disabled.add(surface);
  return { ...entry, disabledSurfaceIds: [...disabled].sort(), updatedAt: now };
}

/**
 * `enable` / `disable` of a bundle or one surface (notes §3.8). Disabling is always allowed;
 * enabling something quarantined is refused. A no-op writes nothing and takes no lock.
 */
export async function setGjcEnabled(
  ctx: Context,
  name: string,
  scope: Scope,
  enabled: boolean,
  surface?: string,
): Promise<EnablementResult> {
  const pre = readRegistry(scopeRoot(ctx, scope), scope, ctx).plugins.find((p) => p.name === name);
  if (!pre) throw notInstalled(name, scope);
  const result = (changed: boolean): EnablementResult => ({
    name,
    scope,
    ...(surface ? { surface } : {}),
    enabled,
    changed,
  });
  if (!applyChange(pre, enabled, surface, ctx.now().toISOString())) return result(false);
  return withScopes(ctx, scope, `gjc plugin ${enabled ? "enable" : "disable"}`, false, (s) => {
    const entry = s.target.registry.plugins.find((p) => p.name === name);
    if (!entry) throw notInstalled(name, scope);
    const next = applyChange(entry, enabled, surface, ctx.now().toISOString());
    if (!next) return result(false);
    writeRegistry(
      s.target.root,
      { version: 1, scope, plugins: s.target.registry.plugins.map((p) => (p.name === name ? next : p)) },
      ctx,
    );
    return result(true);
  });
}
