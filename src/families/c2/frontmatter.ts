/**
 * Markdown files with a YAML frontmatter block (SKILL.md, agents/*.md, commands/*.md).
 * The block is parsed by the one frontmatter YAML reader (src/bundle/yaml-frontmatter.ts, which
 * refuses a repeated key in any form); a file without one has empty metadata.
 */
import { parseFrontmatterYaml } from "../../bundle/yaml-frontmatter.ts";

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
  let data: unknown = {};
  if (yaml.trim() !== "") {
    const parsed = parseFrontmatterYaml(yaml);
    // The block starts on the file's second line (the first is the opening ---).
    const at = !parsed.ok && parsed.line !== undefined ? ` at line ${parsed.line + 1}` : "";
    if (!parsed.ok)
      return {
        ok: false,
        reason: parsed.duplicate
          ? `the frontmatter repeats the key ${parsed.key === undefined ? "(spelled two ways)" : JSON.stringify(parsed.key)}${at}; YAML readers disagree on which one counts, so keep one`
          : `the frontmatter is not valid YAML${at} (${parsed.reason})`,
      };
    data = parsed.value;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    return { ok: false, reason: "the frontmatter must be a YAML mapping" };
  return { ok: true, doc: { data: data as Record<string, unknown>, body } };
}
