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
 * The GJC agent's own tool names (gjc-notes, addendum "host built-in tool names": BUILTIN_TOOLS
 * of the newest upstream agent). A bundle tool never overwrites one; a host whose list differs
 * passes its own (`gjc plugin session --host-tools`).
 */
export const HOST_BUILTIN_TOOLS: readonly string[] = [
  "read",
  "bash",
  "edit",
  "ast_grep",
  "ast_edit",
  "render_mermaid",
  "ask",
  "debug",
  "bisect",
  "eval",
  "calc",
  "ssh",
  "github",
  "find",
  "search",
  "lsp",
  "browser",
  "checkpoint",
  "rewind",
  "task",
  "subagent",
  "job",
  "monitor",
  "cron",
  "recipe",
  "irc",
  "todo_write",
  "web_search",
  "skill_discovery",
  "telegram_send",
  "write",
  "skill",
  "goal",
];

/**
 * Session-start collisions (gjc-notes §5.3, widened to sub-skills): candidates are taken in
 * registry order (user before project); a bundle that touches any name an earlier active
 * bundle holds loses entirely, one record per colliding surface, and reserves nothing.
 * Nothing is ever shadowed. Sub-skills count too, so an activation flag can never name two
 * bundles (the same bundle installed in both scopes would otherwise do exactly that).
 */
export function resolveSessionCollisions(
  candidates: CollisionCandidate[],
  hostTools: readonly string[] = [],
): Map<number, CollisionLoss[]> {
  const held = new Map<string, string>();
  // Host tools first: compared lower-cased, as the reference host does with the names it is given.
  const hostHeld = new Set(hostTools.map((t) => t.toLowerCase()));
  const losses = new Map<number, CollisionLoss[]>();
  candidates.forEach((c, index) => {
    const mine: string[] = [];
    let lost: CollisionLoss[] | undefined;
    for (const surface of c.surfaces) {
      if (surface.kind === "tool" && typeof surface.name === "string" && hostHeld.has(surface.name.toLowerCase())) {
        lost ??= [];
        lost.push({
          surfaceId: surface.extensionId,
          heldBy: "the host",
          message: `Tool name "${surface.name}" is already present as a host built-in tool; refusing to overwrite (fail-closed, no shadowing).`,
        });
        continue;
      }
      // The one rule of what collides (src/families/gjc/ids.ts), as validate and install use it.
      for (const { key, label } of collisionKeys({ ...surface, id: surface.extensionId })) {
        const holder = held.get(key);
        if (holder === undefined) {
          mine.push(key);
          continue;
        }
        lost ??= [];
        if (!lost.some((l) => l.surfaceId === surface.extensionId)) {
          lost.push({
            surfaceId: surface.extensionId,
            heldBy: holder,
            message: `${label} collides with ${holder}, which is already active; fail-closed (no shadowing).`,
          });
        }
      }
    }
    if (lost) losses.set(index, lost);
    else for (const key of mine) held.set(key, c.owner);
  });
  return losses;
}
