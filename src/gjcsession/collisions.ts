import { collisionKeys, type CollidableSurface } from "../families/gjc/ids.ts";

export interface CollisionCandidate {
  /** `<scope>/<name>`, for messages. */
  owner: string;
  /** The surfaces this bundle would activate (enabled, not quarantined). */
  surfaces: CollidableSurface[];
}

export interface CollisionLoss {
  surfaceId: string;
  message: string;
  /** The bundle that holds the contested name. */
  heldBy: string;
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
    const mine: { key: string; surfaceId: string; label: string }[] = [];
    const lost: CollisionLoss[] = [];
    const seenHere = new Set<string>();
    for (const surface of c.surfaces) {
      for (const k of collisionKeys(surface)) {
        const holder = held.get(k.key);
        if (holder !== undefined) {
          if (!lost.some((l) => l.surfaceId === surface.id)) {
            lost.push({ surfaceId: surface.id, heldBy: holder, message: `${k.label} collides with ${holder}, which is already active; fail-closed (no shadowing).` });
          }
        } else if (!seenHere.has(k.key)) {
          seenHere.add(k.key);
          mine.push({ key: k.key, surfaceId: surface.id, label: k.label });
        }
      }
    }
    if (lost.length > 0) {
      losses.set(index, lost);
      return;
    }
    for (const m of mine) held.set(m.key, c.owner);
  });
  return losses;
}
