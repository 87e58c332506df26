import { ROLE_AGENTS, WORKFLOW_PHASES } from "../families/gjc/constants.ts";

/**
 * The phase a workflow skill starts in when the host keeps no state for it (gjc-notes §1.4).
 * Agents have the single phase `prompt`.
 */
const INITIAL_PHASE: Readonly<Record<string, string>> = {
  autoresearch: "intake",
  "deep-interview": "interviewing",
  ralplan: "planner",
  ultragoal: "goal-planning",
};

export const WORKFLOW_SKILLS: readonly string[] = Object.keys(WORKFLOW_PHASES);
export const AGENTS: readonly string[] = ROLE_AGENTS;

export function initialPhase(parent: string): string {
  return INITIAL_PHASE[parent] ?? "prompt";
}
