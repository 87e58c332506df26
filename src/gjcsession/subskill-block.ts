import { stripBodyControls, attr } from "./escape.ts";
import { SUBSKILL_ATTR_MAX_CHARS } from "./limits.ts";

export interface SubskillBlockInput {
  plugin: string;
  name: string;
  parent: string;
  phase: string;
  arg: string;
  body: string;
}

/**
 * The Tier-2 injection (gjc-notes §6.8): the full body of an activated sub-skill in a
 * `<gjc-subskill>` block after a separator. Attributes are escaped. The body is trusted
 * Markdown from a verified bundle and is kept as written, except that control characters
 * are removed and anything spelling our own delimiter is escaped, so a body cannot close
 * its block early or forge a second one.
 */
export function subskillBlock(s: SubskillBlockInput): string {
  const body = stripBodyControls(s.body).replace(/<(\/?)(gjc-)/gi, "&lt;$1$2");
  const a = (v: string) => attr(v, SUBSKILL_ATTR_MAX_CHARS);
  return `\n\n---\n\n<gjc-subskill plugin="${a(s.plugin)}" name="${a(s.name)}" parent="${a(s.parent)}" phase="${a(s.phase)}" arg="${a(s.arg)}">\n${body}\n</gjc-subskill>`;
}
