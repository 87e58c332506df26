import { collisionKeys } from "../families/gjc/ids.ts";
import type { RegistrySurface } from "../install/registry-types.ts";

export interface CollisionCandidate {
  /** `<scope>/<name>`, for messages. */
  owner: string;
  /** The surfaces this bundle would activate (enabled, not quarantined). */
  surfaces: RegistrySurface[];
}

export interface CollisionLoss {
  surfaceId: string;
  message: string;
  /** The bundle that holds the contested name. */
  heldBy: string;
}

/**
 * The keys a stored surface collides on: the same rules as `collisionKeys` in
 * src/families/gjc/ids.ts (a test holds the two together), computed without building the
 * labels, since this runs for every surface at every session start and labels are only
 * needed for the rare collision.
 */
export function sessionKeys(s: RegistrySurface): string[] {
  switch (s.kind) {
    case "tool":
      return [`tool:${s.name}`];
    case "mcp":
      return [`mcp:${s.name}`];
    case "hook":
    case "system-appendix":
    case "agent-appendix":
      return [s.extensionId];
    case "subskill":
      return [`arg:${s.parent}:${s.activation_arg}`, `phase:${s.parent}:${s.phase}`];
    default:
      return [];
  }
}

function label(s: RegistrySurface, key: string): string {
  return collisionKeys({ ...s, id: s.extensionId }).find((k) => k.key === key)?.label ?? s.extensionId;
}

/**
 * Session-start collisions (gjc-notes §5.3, widened to sub-skills): candidates are taken in
 * registry order (user before project); a bundle that touches any name an earlier active
 * bundle holds loses entirely, one record per colliding surface, and reserves nothing.
 * Nothing is ever shadowed. Sub-skills count too, so an activation flag can never name two
 * bundles (the same bundle installed in both scopes would otherwise do exactly that).
 */
export function resolveSessionCollisions(candidates: CollisionCandidate[]): Map<number, CollisionLoss[]> {
  const held = new Map<string, string>();
  const losses = new Map<number, CollisionLoss[]>();
  candidates.forEach((c, index) => {
    const mine: string[] = [];
    let lost: CollisionLoss[] | undefined;
    for (const surface of c.surfaces) {
      for (const key of sessionKeys(surface)) {
        const holder = held.get(key);
        if (holder === undefined) {
          mine.push(key);
          continue;
        }
        lost ??= [];
        if (!lost.some((l) => l.surfaceId === surface.extensionId)) {
          lost.push({ surfaceId: surface.extensionId, heldBy: holder, message: `${label(surface, key)} collides with ${holder}, which is already active; fail-closed (no shadowing).` });
        }
      }
    }
    if (lost) losses.set(index, lost);
    else for (const key of mine) held.set(key, c.owner);
  });
  return losses;
}
