/**
 * The one YAML reader of frontmatter blocks (GJC sub-skills, C2 skills, agents and prompt
 * commands). YAML 1.2 says mapping keys are unique, and readers disagree about a repeated one
 * (Bun.YAML keeps the last, others the first or fail), so a reviewer's tool could show one
 * skill name and a host use another. Bun.YAML reports no repeat in any form; the `yaml`
 * package (eemeli/yaml) refuses it in every form (`name:` twice, `"name"` and `'name'`,
 * `? name`, inside an indented map) with its line, and bounds alias expansion. It loads on
 * the first frontmatter read, never at start-up.
 */
import type * as YamlModule from "yaml";

/** At most this many alias references in one document (an alias bomb stops at once). */
const MAX_ALIASES = 100;

let yamlModule: typeof YamlModule | undefined;
/**
 * The package's ES module build (its `browser` entry: the same source as the CommonJS `node`
 * entry that `"yaml"` resolves to under Bun), by path because the package exports only the
 * latter. Two reasons: the node entry reads the environment while it parses (LOG_TOKENS and
 * LOG_STREAM make it print every token to stdout, into a --json document), and its seventy
 * CommonJS modules take about three times as long to load in the compiled binary.
 */
const yaml = (): typeof YamlModule =>
  (yamlModule ??= require("../../node_modules/yaml/browser/dist/index.js") as typeof YamlModule);

export type FrontmatterYaml =
  | { ok: true; value: unknown }
  | { ok: false; reason: string; line?: number; duplicate?: boolean; key?: string };

/** Parses one frontmatter block; never throws. `line` is 1-based within the block. */
export function parseFrontmatterYaml(source: string): FrontmatterYaml {
  const { parseDocument } = yaml();
  let doc: YamlModule.Document.Parsed;
  try {
    doc = parseDocument(source, { uniqueKeys: true, prettyErrors: true, strict: true });
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  const error = doc.errors[0];
  if (error !== undefined) {
    const line = error.linePos?.[0]?.line;
    const duplicate = error.code === "DUPLICATE_KEY";
    const key = duplicate ? repeatedKey(source, error.pos[0]) : undefined;
    const what = duplicate
      ? `the key ${key === undefined ? "" : `${JSON.stringify(key)} `}is written twice (YAML readers disagree on which one counts; keep one)`
      : error.message.split("\n")[0];
    return {
      ok: false,
      reason: what,
      ...(line !== undefined ? { line } : {}),
      ...(duplicate ? { duplicate } : {}),
      ...(key !== undefined ? { key } : {}),
    };
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_ALIASES }) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message.split("\n")[0] };
  }
}

/** The repeated key whose second spelling starts at `offset`, as its value reads (for messages). */
function repeatedKey(source: string, offset: number): string | undefined {
  const { parseDocument, visit, isScalar } = yaml();
  let found: string | undefined;
  visit(parseDocument(source, { uniqueKeys: false }), {
    Pair(_, pair) {
      const key = pair.key;
      if (found === undefined && isScalar(key) && key.range?.[0] === offset) found = String(key.value);
    },
  });
  return found;
}
