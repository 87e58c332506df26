/**
 * A frontmatter key written twice (`name: safe` … `name: evil`). Bun.YAML keeps the last one;
 * YAML 1.2 says keys are unique and readers differ (some keep the first, some fail), so a
 * reviewer's tool could show one skill name or description and gjc use another: the same
 * parser differential as a repeated JSON key (src/bundle/json.ts).
 *
 * Bun.YAML cannot report it, so the check counts what the text declares against what the
 * parse kept, as the JSON check does: every top-level block key is a line that starts at
 * column 0 with a plain or quoted key and a `:`. More such lines than keys in the parsed
 * mapping means a key repeats (however it was spelled: `name`, `"name"`, `'name'`). Keys
 * written in flow style or as `? key` are not counted, so they can only be missed, never
 * cause a refusal; `<<` merge keys are not counted since they add no key of their own.
 */
const TOP_LEVEL_KEY = /^("(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'|[^\s#\-?:{}[\],&*!|>'"%@`][^\n]*?)[ \t]*:(?:[ \t]|$)/;

/** The first top-level key the text repeats (as written, unquoted), "" when the repeat is spelled differently, or undefined. */
export function repeatedYamlKey(yaml: string, parsed: Record<string, unknown>): string | undefined {
  const written: string[] = [];
  for (const line of yaml.split(/\r?\n/)) {
    const m = TOP_LEVEL_KEY.exec(line);
    if (m && m[1] !== "<<") written.push(unquote(m[1]));
  }
  if (written.length <= Object.keys(parsed).length) return undefined;
  const seen = new Set<string>();
  for (const key of written) {
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return "";
}

function unquote(key: string): string {
  if (key.startsWith('"')) {
    try {
      return JSON.parse(key) as string;
    } catch {
      return key.slice(1, -1);
    }
  }
  if (key.startsWith("'")) return key.slice(1, -1).replaceAll("''", "'");
  return key;
}

/** The reason a frontmatter with a repeated key is refused, for a message. */
export function repeatedReason(key: string): string {
  return `the frontmatter repeats the key ${key === "" ? "(spelled two ways)" : JSON.stringify(key)}; YAML readers disagree on which one counts, so keep one`;
}
