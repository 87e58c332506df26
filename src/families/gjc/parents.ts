import { AGENT_PHASES, ROLE_AGENTS, WORKFLOW_PHASES } from "./constants.ts";

export type ParentKind = "skill" | "agent";

/** What a `binds_to` names: one of the four workflow skills, one of the four role agents, or neither. */
export function parentKind(parent: string): ParentKind | undefined {
  if (Object.hasOwn(WORKFLOW_PHASES, parent)) return "skill";
  if ((ROLE_AGENTS as readonly string[]).includes(parent)) return "agent";
  return undefined;
}

/** The phases a parent accepts (a skill's workflow states; `prompt` for an agent). */
export function allowedPhases(parent: string): readonly string[] {
  return parentKind(parent) === "skill" ? WORKFLOW_PHASES[parent] : AGENT_PHASES;
}

export const PROTECTED_PARENTS: readonly string[] = [...Object.keys(WORKFLOW_PHASES), ...ROLE_AGENTS];
