import type { Code } from "../core/codes.ts";
import type { Scope } from "../core/scope.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { collisionKeys, type CollidableSurface } from "../families/gjc/ids.ts";
import type { CompiledBundle } from "../families/gjc/compile-for-install.ts";
import { scopeFlag } from "../families/gjc/layout.ts";
import { entrySurfaces, type RegistryEntry } from "./registry-types.ts";

export interface Collision {
  code: Code;
  label: string;
  surfaceId: string;
  /** The installed bundle that already owns it. */
  owner: { name: string; scope: Scope };
}

/** A registry surface in the shape the shared collision rules read (`id` instead of `extensionId`). */
export const asCollidable = (s: { extensionId: string; kind: string }): CollidableSurface => ({
  ...s,
  id: s.extensionId,
});

/**
 * Install-time collisions (notes §5.2): the registries of both scopes are the authority, and
 * every installed entry counts, enabled or not (disabling must not free a name someone else
 * could then take). Entries with the candidate's own name are left out, so the same bundle may
 * live in both scopes and never collides with itself on reinstall or upgrade.
 */
export function findCollisions(bundle: CompiledBundle, installed: RegistryEntry[]): Collision[] {
  const owners = new Map<string, { entry: RegistryEntry; surfaceId: string }>();
  for (const entry of installed) {
    if (entry.name === bundle.name) continue;
    for (const s of entrySurfaces(entry)) {
      for (const k of collisionKeys(asCollidable(s)))
        owners.set(`${k.code}\0${k.key}`, { entry, surfaceId: s.extensionId });
    }
  }
  const found: Collision[] = [];
  for (const s of bundle.surfaces) {
    for (const k of collisionKeys(s)) {
      const owner = owners.get(`${k.code}\0${k.key}`);
      if (owner)
        found.push({
          code: k.code,
          label: k.label,
          surfaceId: s.id,
          owner: { name: owner.entry.name, scope: owner.entry.scope },
        });
    }
  }
  return found;
}

export function collisionError(bundle: CompiledBundle, collisions: Collision[]): GjcError {
  const c = collisions[0];
  const more =
    collisions.length > 1
      ? ` (${collisions.length - 1} more collision${collisions.length > 2 ? "s" : ""} in details)`
      : "";
  return new GjcError({
    code: c.code,
    message: `${bundle.name} cannot be installed: its ${c.label} (${c.surfaceId}) is already owned by ${c.owner.name} in the ${c.owner.scope} scope${more}.`,
    hint: `Rename the surface in ${bundle.name}, or remove the other bundle first (gjc plugin uninstall ${c.owner.name} ${scopeFlag(c.owner.scope)}).`,
    details: { collisions },
    exit: ExitCode.failed,
  });
}
