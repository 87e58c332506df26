import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { parseFrontmatterYaml } from "../../bundle/yaml-frontmatter.ts";
import { didYouMean } from "../../core/suggest.ts";
import { BODY_CONTROL_CHARS, SAFE_NAME } from "./constants.ts";
import { checkProse, describeValue, isPlainObject, quote, visible, withoutBom } from "./fields.ts";
import { allowedPhases, parentKind, PROTECTED_PARENTS } from "./parents.ts";
import type { GjcSubskillSurface } from "./surface-types.ts";

/** The frontmatter fields the sub-skill surface carries as they are, plus its `tools:` field. */
export type SubskillFrontmatter = Pick<
  GjcSubskillSurface,
  "name" | "description" | "parent" | "parentKind" | "phase" | "activation_arg"
> & {
  /** Bundle-relative tool module paths from the optional `tools:` field. */
  tools: string[];
};

/** One strict decoder for every sub-skill (decode() without { stream } keeps no state between calls). */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

const REQUIRED = ["name", "description", "binds_to", "phase", "activation_arg"] as const;
/** The line that opens and closes the frontmatter block. */
const OPENER = /^---[ \t]*$/;

/**
 * Splits a SKILL.md into its frontmatter text and body. A leading BOM is dropped, CRLF and CR
 * become LF, HTML comments are removed; the block opens on a first line that is exactly
 * `---` (trailing blanks allowed) and closes at the next such line. Without both there is no
 * frontmatter (every required field is then reported missing).
 */
export function splitFrontmatter(text: string): { yaml: string | undefined; body: string } {
  const normalized = withoutBom(text)
    .replace(/\r\n?/g, "\n")
    .replace(/<!--[\s\S]*?-->/g, "");
  const lines = normalized.split("\n");
  const close = OPENER.test(lines[0]) ? lines.findIndex((line, i) => i > 0 && OPENER.test(line)) : -1;
  if (close === -1) return { yaml: undefined, body: normalized.trim() };
  return {
    yaml: lines.slice(1, close).join("\n"),
    body: lines
      .slice(close + 1)
      .join("\n")
      .trim(),
  };
}

/**
 * Parses and checks a sub-skill file's frontmatter (YAML through the one frontmatter reader, src/bundle/yaml-frontmatter.ts). Reports
 * `invalid_frontmatter` for shape problems, `invalid_parent` / `invalid_phase` when the
 * binding names something a bundle may not extend. `file` is the bundle-relative path that
 * diagnostics point at.
 */
export function parseSubskillFile(
  sink: DiagnosticSink,
  bytes: Uint8Array,
  file: string,
): { frontmatter?: SubskillFrontmatter; body: string } {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    sink.error("invalid_frontmatter", file, `${file} is not valid UTF-8 text.`, "Save the sub-skill as UTF-8.");
    return { body: "" };
  }
  const { yaml, body } = splitFrontmatter(text);
  // Removed HTML comments shift the lines of the block against the file's.
  const commentsRemoved = text.includes("<!--");
  const before = sink.items.length;
  let data: Record<string, unknown> = {};
  if (yaml === undefined) {
    sink.error(
      "invalid_frontmatter",
      file,
      `${file} has no frontmatter block (a first line "---", the fields, then a closing "---").`,
      frontmatterHint(),
    );
    return { body };
  }
  // YAML forbids tabs in indentation; editors insert them anyway, so they count as two spaces.
  const source = yaml.includes("\t") ? yaml.replace(/\t/g, "  ") : yaml;
  const parsed = parseFrontmatterYaml(source);
  if (!parsed.ok) {
    // The block starts on the file's second line; removed HTML comments would shift that, so then the block's own line is named.
    const at =
      parsed.line === undefined
        ? ""
        : commentsRemoved
          ? ` at line ${parsed.line} of the frontmatter`
          : ` at line ${parsed.line + 1}`;
    const what = parsed.duplicate
      ? `is refused: it repeats the key ${parsed.key === undefined ? "(spelled two ways)" : visible(JSON.stringify(parsed.key))}${at}; YAML readers disagree on which one counts, so keep one`
      : `is not valid YAML${at} (${visible(parsed.reason)})`;
    sink.error("invalid_frontmatter", file, `The frontmatter of ${file} ${what}.`, frontmatterHint());
    return { body };
  }
  const value = parsed.value;
  if (value === null || value === undefined) data = {};
  else if (isPlainObject(value)) data = value;
  else {
    sink.error(
      "invalid_frontmatter",
      file,
      `The frontmatter of ${file} must be a YAML mapping, not ${describeValue(value)}.`,
      frontmatterHint(),
    );
    return { body };
  }

  const strings: Partial<Record<(typeof REQUIRED)[number], string>> = {};
  for (const key of REQUIRED) {
    const v = data[key];
    if (typeof v === "string" && v.trim() !== "") {
      strings[key] = v;
      continue;
    }
    const near =
      v === undefined
        ? didYouMean(
            key,
            Object.keys(data).filter((k) => !(REQUIRED as readonly string[]).includes(k)),
          )
        : "";
    const what = v === undefined ? "is missing" : `must be a non-empty string, not ${describeValue(v)}`;
    sink.error("invalid_frontmatter", file, `Frontmatter field ${key} ${what} in ${file}.${near}`, frontmatterHint());
  }
  for (const key of ["name", "activation_arg"] as const) {
    const v = strings[key];
    if (v !== undefined && !SAFE_NAME.test(v)) {
      sink.error(
        "invalid_frontmatter",
        file,
        `Frontmatter field ${key} is ${quote(v)} in ${file}; it must be 1-128 characters of letters, digits, ".", "_" or "-", starting with a letter or digit.`,
      );
    }
  }
  checkProse(sink, strings.description, `The description in ${file}`, file, "invalid_frontmatter");

  let tools: string[] = [];
  if (data.tools !== undefined) {
    if (typeof data.tools === "string" && data.tools.trim() !== "") tools = [data.tools];
    else if (Array.isArray(data.tools) && data.tools.every((t) => typeof t === "string" && t.trim() !== ""))
      tools = data.tools as string[];
    else
      sink.error(
        "invalid_frontmatter",
        file,
        `Frontmatter field tools in ${file} must be a tool path or a list of tool paths.`,
        "List bundle-relative tool module paths, for example tools: [tools/lookup.ts].",
      );
  }

  const bad = BODY_CONTROL_CHARS.exec(body);
  if (bad) {
    sink.error(
      "invalid_frontmatter",
      file,
      `The body of ${file} contains the control character U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}.`,
      "Remove it; the body is injected into a prompt and shown in terminals.",
    );
  }

  const parent = strings.binds_to;
  const kind = parent === undefined ? undefined : parentKind(parent);
  if (parent !== undefined && kind === undefined) {
    sink.error(
      "invalid_parent",
      file,
      `${file} binds to ${quote(parent)}, which a bundle cannot extend.${didYouMean(parent, PROTECTED_PARENTS)}`,
      `binds_to must be one of ${PROTECTED_PARENTS.join(", ")}.`,
    );
  }
  const phase = strings.phase;
  if (parent !== undefined && kind !== undefined && phase !== undefined && !allowedPhases(parent).includes(phase)) {
    const allowed = allowedPhases(parent);
    sink.error(
      "invalid_phase",
      file,
      `${file} binds to phase ${quote(phase)} of ${parent}, which has no such phase.${didYouMean(phase, allowed)}`,
      `${parent} phases: ${allowed.join(", ")}.`,
    );
  }
  if (sink.items.length !== before || kind === undefined) return { body };
  return {
    frontmatter: {
      name: strings.name!,
      description: strings.description!,
      parent: parent!,
      parentKind: kind,
      phase: phase!,
      activation_arg: strings.activation_arg!,
      tools,
    },
    body,
  };
}

function frontmatterHint(): string {
  return "Start the file with a block between two --- lines holding name, description, binds_to (a workflow skill or role agent), phase (one of that parent's phases) and activation_arg.";
}
