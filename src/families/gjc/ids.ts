/**
 * Stable extension ids of GJC surfaces (the seed's formats) and the keys two surfaces collide
 * on. The install and session code reuse these for cross-bundle collisions, so an id or a
 * collision rule has exactly one definition.
 */
export const toolId = (name: string) => `tool:${name}`;
/** A missing phase or target is an empty segment: `hook:session_start:::audit`. */
export const hookId = (
  event: string,
  phase: string | undefined | null,
  target: string | undefined | null,
  name: string,
) => `hook:${event}:${phase ?? ""}:${target ?? ""}:${name}`;
export const mcpId = (name: string) => `mcp:${name}`;
export const systemAppendixId = (plugin: string, name: string) => `system-appendix:${plugin}:${name}`;
export const agentAppendixId = (agent: string, plugin: string, name: string) =>
  `agent-appendix:${agent}:${plugin}:${name}`;
export const subskillId = (parent: string, phase: string, activationArg: string) =>
  `subskill:${parent}:${phase}:${activationArg}`;
/** Pseudo id for quarantining a whole bundle. */
export const pluginId = (name: string) => `plugin:${name}`;

export type DuplicateCode =
  | "duplicate_tool"
  | "duplicate_hook"
  | "duplicate_mcp"
  | "duplicate_appendix"
  | "duplicate_arg"
  | "duplicate_parent_phase";

export interface CollisionKey {
  code: DuplicateCode;
  /** Two surfaces collide when they share a key (keys of different codes never meet). */
  key: string;
  /** What collides, for messages: `tool name "x"`, `ralplan activation_arg "design"`. */
  label: string;
}

/** The minimum a surface must carry for collision checks (a GjcSurface has all of it). */
export interface CollidableSurface {
  id: string;
  kind: string;
  [k: string]: unknown;
}

/**
 * The collision keys of one surface (gjc-notes §5.2): tools and MCPs by name, hooks and
 * appendices by extension id, sub-skills by (parent, activation_arg) and by (parent, phase).
 * Tool names compare case-insensitively, as the host's own tool names do (collisions.ts): a
 * host that matches names without case would otherwise see two bundles' tools as one.
 */
export function collisionKeys(surface: CollidableSurface): CollisionKey[] {
  const s = surface as Record<string, unknown>;
  switch (surface.kind) {
    case "tool":
      return [{ code: "duplicate_tool", key: `tool:${String(s.name).toLowerCase()}`, label: `tool name "${s.name}"` }];
    case "hook":
      return [{ code: "duplicate_hook", key: surface.id, label: `hook ${surface.id}` }];
    case "mcp":
      return [{ code: "duplicate_mcp", key: `mcp:${s.name}`, label: `MCP server name "${s.name}"` }];
    case "system-appendix":
    case "agent-appendix":
      return [{ code: "duplicate_appendix", key: surface.id, label: `appendix ${surface.id}` }];
    case "subskill":
      return [
        {
          code: "duplicate_arg",
          key: `arg:${s.parent}:${s.activation_arg}`,
          label: `${s.parent} activation_arg "${s.activation_arg}"`,
        },
        {
          code: "duplicate_parent_phase",
          key: `phase:${s.parent}:${s.phase}`,
          label: `${s.parent} phase "${s.phase}"`,
        },
      ];
    default:
      return [];
  }
}
