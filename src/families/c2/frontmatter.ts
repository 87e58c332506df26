/**
 * Markdown files with a YAML frontmatter block (SKILL.md, agents/*.md, commands/*.md).
 * The block is parsed with Bun.YAML; a file without one has empty metadata.
 */
import { repeatedReason, repeatedYamlKey } from "../../bundle/yaml-keys.ts";

export interface MarkdownDoc {
  data: Record<string, unknown>;
  body: string;
}

export type MarkdownParse = { ok: true; doc: MarkdownDoc } | { ok: false; reason: string };

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*$/m;

export function parseFrontmatter(text: string): MarkdownParse {
  const open = OPEN.exec(text);
  if (!open) return { ok: true, doc: { data: {}, body: text } };
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) return { ok: false, reason: "the frontmatter block opened with --- is never closed" };
  const yaml = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length).replace(/^\r?\n/, "");
  let data: unknown;
  try {
    data = yaml.trim() === "" ? {} : Bun.YAML.parse(yaml);
  } catch (error) {
    return { ok: false, reason: `the frontmatter is not valid YAML (${(error as Error).message})` };
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return { ok: false, reason: "the frontmatter must be a YAML mapping" };
  const repeated = repeatedYamlKey(yaml, data as Record<string, unknown>);
  if (repeated !== undefined) return { ok: false, reason: repeatedReason(repeated) };
  return { ok: true, doc: { data: data as Record<string, unknown>, body } };
}
