/**
 * The code inventory: every error and diagnostic code the code base can emit, found by reading
 * src/**\/*.ts (generated files excepted). The code table (src/core/codes.ts) is what GjcError and
 * Diagnostic accept and what the explain index is generated from; this scan is the tests' cross-check
 * of it beyond those two types (codes in other documents' fields) and against codes nothing emits
 * any more. Test-only, so it may read the source tree.
 *
 * What counts as emitting a code (on tokens, so comments, strings and regexes never confuse it):
 * - a `code` property, variable or default parameter given a value: `code: "x"`,
 *   `const code = a ? "x" : "y"`, `code = "usage"`, `code: () => "x"`: every string literal in
 *   that expression, except operands of `===`/`!==` (those read a code, they do not make one);
 * - a call of a function that has a parameter named `code` (or `<something>Code`, such as
 *   `warnCode`), with a literal in that position.
 *   Such functions are discovered in the tree itself (declarations, arrow functions, methods,
 *   constructors), so `sink.error("x", …)`, `usageError(m, h, "x")`, `sourceError("x", …)`,
 *   `runtimeError("x", …)`, `refused("x", …)`, `new HandshakeRefusal("x", …)` and any helper
 *   added later are covered without a list to maintain;
 * - the members of a string-literal union type whose name contains `Code` (`SourceErrorCode`);
 * - the `return` values of a function or method named `code` (the TypeBox error mappings'
 *   `code(segments) { switch … return "x" }`);
 * - in any of those expressions, `TABLE[key]` where TABLE is a `const` object literal of the
 *   same file: all of TABLE's string values (`C2_CODES[head] ?? "invalid_manifest"`).
 *
 * Limits (why the explicit table below exists, and what review must still catch):
 * - A code that reaches its emitter only through a variable that is not named `code` (a table
 *   lookup such as `RULES[kind].id`, a parameter named differently, `runtimeError(e.status)`)
 *   is invisible to the scan: list such codes in INDIRECT_CODES below.
 * - A template literal with a substitution in a code position (`duplicate_${kind}`) cannot be
 *   evaluated: it is reported as a dynamic site, and the inventory fails unless DYNAMIC_CODES
 *   below lists its possible values.
 * - Arguments of calls nested in a `code` expression are skipped (`code: m.code(segs, "required")`
 *   passes a keyword, not a code); a code chosen inside such a call is therefore not seen.
 * - Only lowercase snake_case literals are codes (the house convention); anything else in a code
 *   position, such as an errno `"ENOENT"`, is ignored.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { tokenize, type Token } from "./tokenize.ts";

/** snake_case, optionally dotted for notice codes such as `runtime.requires_trust`. */
export const CODE_SHAPE = /^[a-z][a-z0-9]*(?:[_.][a-z0-9]+)*$/;

/**
 * Codes built from template strings, keyed by the template's raw text as written in the source.
 * Each key must list every value the substitution can take (read the emitting code to get them).
 * A dynamic site whose template is not listed here makes the inventory incomplete (test fails).
 */
export const DYNAMIC_CODES: Record<string, string[]> = {
  // No code is built from a template at present. An entry looks like:
  // "duplicate_${kind}": ["duplicate_tool", "duplicate_hook"], // kind: SurfaceKind in families/gjc/ids.ts
};

export interface CodeSite {
  code: string;
  /** Repository-relative POSIX path. */
  file: string;
  line: number;
  rule: "property" | "call" | "type" | "dynamic" | "indirect";
}

export interface DynamicSite {
  template: string;
  file: string;
  line: number;
}

export interface Inventory {
  /** code → every place it is emitted, sorted by code. */
  codes: Map<string, CodeSite[]>;
  /** Template-literal codes not listed in DYNAMIC_CODES. */
  unresolved: DynamicSite[];
}

/** Generated files are skipped: the page index holds every documented code by construction. */
const isGenerated = (name: string) => name.endsWith(".generated.ts");

/**
 * Codes that reach an emitter through a variable the scan cannot follow, written out by hand
 * (keyed by where they flow, for the reviewer). Keep these in step with the code they name.
 */
export const INDIRECT_CODES: Record<string, string[]> = {
  // runtimeError(e.status, …): the statuses eligibility() returns other than "ready".
  "src/c2host/lsp.ts runtimeError(e.status)": [
    "quarantined",
    "untrusted",
    "plugin_disabled",
    "policy_safe_mode",
    "policy_disabled",
  ],
};

export function scanInventory(repoRoot: string): Inventory {
  const srcRoot = join(repoRoot, "src");
  const files = listTs(srcRoot).map((abs) => ({
    file: relative(repoRoot, abs).split(sep).join("/"),
    tokens: tokenize(readFileSync(abs, "utf8")),
  }));
  const emitters = discoverEmitters(files.map((f) => f.tokens));
  const codes = new Map<string, CodeSite[]>();
  const unresolved: DynamicSite[] = [];
  const add = (site: CodeSite) => {
    const list = codes.get(site.code) ?? [];
    list.push(site);
    codes.set(site.code, list);
  };
  for (const { file, tokens } of files) {
    for (const found of scanTokens(tokens, emitters)) {
      if (found.kind === "literal") add({ code: found.value, file, line: found.line, rule: found.rule });
      else {
        const values = DYNAMIC_CODES[found.value];
        if (values) for (const code of values) add({ code, file, line: found.line, rule: "dynamic" });
        else unresolved.push({ template: found.value, file, line: found.line });
      }
    }
  }
  const scanned = new Set(files.map((f) => f.file));
  for (const [where, list] of Object.entries(INDIRECT_CODES)) {
    const file = where.split(" ")[0];
    if (scanned.has(file)) for (const code of list) add({ code, file, line: 0, rule: "indirect" });
  }
  return { codes: new Map([...codes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), unresolved };
}

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) {
      out.push(...listTs(abs));
    } else if (name.endsWith(".ts") && !name.endsWith(".d.ts") && !isGenerated(name)) out.push(abs);
  }
  return out;
}

const KEYWORDS = new Set([
  "if",
  "for",
  "while",
  "switch",
  "catch",
  "function",
  "return",
  "typeof",
  "await",
  "new",
  "super",
  "import",
  "with",
]);
const METHOD_PREFIX = new Set([
  "{",
  "}",
  ";",
  "private",
  "public",
  "protected",
  "static",
  "async",
  "readonly",
  "get",
  "set",
  "export",
]);

const isPunct = (t: Token | undefined, v: string) => t?.type === "punct" && t.value === v;
const isIdent = (t: Token | undefined, v?: string) => t?.type === "ident" && (v === undefined || t.value === v);
const opens = (t: Token) => t.type === "punct" && (t.value === "(" || t.value === "[" || t.value === "{");
const closes = (t: Token) => t.type === "punct" && (t.value === ")" || t.value === "]" || t.value === "}");

/** Index of the bracket closing the one at `open`, or the last index. */
function matching(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i];
    if (opens(t)) depth++;
    else if (closes(t)) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return tokens.length - 1;
}

/** Top-level comma-separated ranges inside the brackets at `open`…`close` (exclusive). */
function splitArgs(tokens: Token[], open: number, close: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < close; i++) {
    const t = tokens[i];
    if (opens(t)) depth++;
    else if (closes(t)) depth--;
    else if (isPunct(t, ",") && depth === 0) {
      out.push([start, i]);
      start = i + 1;
    }
  }
  if (start < close) out.push([start, close]);
  return out;
}

/** End (exclusive) of the expression starting at `start`: a top-level `,` or `;`, or an unmatched closer. */
function expressionEnd(tokens: Token[], start: number): number {
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i];
    if (opens(t)) depth++;
    else if (closes(t)) {
      if (depth === 0) return i;
      depth--;
    } else if ((isPunct(t, ",") || isPunct(t, ";")) && depth === 0) return i;
  }
  return tokens.length;
}

/**
 * Function name → positions of its parameter named `code`. Constructors are recorded under
 * their class name (for `new X("code", …)`).
 */
function discoverEmitters(files: Token[][]): Map<string, Set<number>> {
  const emitters = new Map<string, Set<number>>();
  const record = (name: string, index: number) => {
    const set = emitters.get(name) ?? new Set<number>();
    set.add(index);
    emitters.set(name, set);
  };
  for (const tokens of files) {
    let currentClass: string | undefined;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (isIdent(t, "class") && isIdent(tokens[i + 1])) currentClass = tokens[i + 1].value;
      if (t.type !== "ident" || KEYWORDS.has(t.value) || !isPunct(tokens[i + 1], "(")) continue;
      const prev = tokens[i - 1];
      let name: string | undefined;
      const close = matching(tokens, i + 1);
      if (isIdent(prev, "function")) name = t.value;
      else if (
        prev &&
        (prev.type === "ident" ? METHOD_PREFIX.has(prev.value) : METHOD_PREFIX.has(prev.value)) &&
        declarationBodyFollows(tokens, close)
      ) {
        name = t.value === "constructor" ? currentClass : t.value;
      }
      if (name) codeParams(tokens, i + 1, close).forEach((index) => record(name, index));
    }
    // Arrow functions bound to a name: `const name = (…) =>` or `name = async (…) =>`.
    for (let i = 0; i + 2 < tokens.length; i++) {
      if (!isIdent(tokens[i]) || !isPunct(tokens[i + 1], "=")) continue;
      let open = i + 2;
      if (isIdent(tokens[open], "async")) open++;
      if (!isPunct(tokens[open], "(")) continue;
      const close = matching(tokens, open);
      if (!arrowFollows(tokens, close)) continue;
      codeParams(tokens, open, close).forEach((index) => record(tokens[i].value, index));
    }
  }
  return emitters;
}

/** After a parameter list: `{` or `: Type {` means a method/function body. */
function declarationBodyFollows(tokens: Token[], close: number): boolean {
  const next = tokens[close + 1];
  if (isPunct(next, "{")) return true;
  if (!isPunct(next, ":")) return false;
  // Skip a return type up to the body's `{` at depth 0 (object types open their own braces).
  let depth = 0;
  for (let i = close + 2; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== "punct") continue;
    if (t.value === "{" && depth === 0) {
      // `{` right after `:`, `|` or `&` opens an object type (`): { ok: true } | { … } {`); any other is the body.
      const prev = tokens[i - 1];
      if (!(prev?.type === "punct" && [":", "|", "&"].includes(prev.value))) return true;
      i = matching(tokens, i);
      continue;
    }
    if (t.value === "(" || t.value === "[" || t.value === "<") depth++;
    else if (t.value === ")" || t.value === "]" || t.value === ">") depth--;
    else if ((t.value === ";" || t.value === "=" || t.value === ",") && depth === 0) return false;
  }
  return false;
}

function arrowFollows(tokens: Token[], close: number): boolean {
  let depth = 0;
  for (let i = close + 1; i < tokens.length && i < close + 60; i++) {
    const t = tokens[i];
    if (t.type !== "punct") continue;
    if (t.value === "=>" && depth === 0) return true;
    if (t.value === "(" || t.value === "[" || t.value === "{" || t.value === "<") depth++;
    else if (t.value === ")" || t.value === "]" || t.value === "}" || t.value === ">") depth--;
    else if ((t.value === ";" || t.value === "=" || t.value === ",") && depth === 0) return false;
    if (depth < 0) return false;
  }
  return false;
}

function codeParams(tokens: Token[], open: number, close: number): number[] {
  const out: number[] = [];
  splitArgs(tokens, open, close).forEach(([s], index) => {
    let k = s;
    while (isIdent(tokens[k]) && ["readonly", "private", "public", "protected"].includes(tokens[k].value)) k++;
    if (isIdent(tokens[k]) && isCodeName(tokens[k].value)) out.push(index);
  });
  return out;
}

/** `code`, or a camelCase name ending in `Code` (`warnCode`, `errorCode`). */
const isCodeName = (name: string) => name === "code" || /^[a-z]\w*Code$/.test(name);

type Found = { kind: "literal" | "template"; value: string; line: number; rule: CodeSite["rule"] };

const COMPARISONS = new Set(["===", "!==", "==", "!="]);

/** Code-shaped literals in a token range; comparison operands and object keys are reads, not codes. */
function literalsIn(
  tokens: Token[],
  start: number,
  end: number,
  rule: CodeSite["rule"],
  tables: Map<string, Token[]>,
): Found[] {
  const out: Found[] = [];
  for (let i = start; i < end; i++) {
    const t = tokens[i];
    const table = t.type === "ident" && isPunct(tokens[i + 1], "[") ? tables.get(t.value) : undefined;
    if (table)
      for (const v of table)
        if (CODE_SHAPE.test(v.value)) out.push({ kind: "literal", value: v.value, line: v.line, rule });
    // Arguments of a nested call (`f(…)`, `a.b(…)`, `x?.(…)`) are that callee's business.
    if (
      rule === "property" &&
      isPunct(t, "(") &&
      (tokens[i - 1]?.type === "ident" || isPunct(tokens[i - 1], ")") || isPunct(tokens[i - 1], "?."))
    ) {
      i = matching(tokens, i);
      continue;
    }
    if (t.type !== "string" && t.type !== "template") continue;
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    if (
      (before?.type === "punct" && COMPARISONS.has(before.value)) ||
      (after?.type === "punct" && COMPARISONS.has(after.value))
    )
      continue;
    if (isPunct(after, ":") && (isPunct(before, "{") || isPunct(before, ","))) continue;
    if (isPunct(before, "[") && isPunct(after, "]")) continue;
    if (t.type === "template" && t.dynamic) out.push({ kind: "template", value: t.value, line: t.line, rule });
    else if (CODE_SHAPE.test(t.value)) out.push({ kind: "literal", value: t.value, line: t.line, rule });
  }
  return out;
}

/** `const NAME = { key: "value", … }` of one file → its string value tokens. */
function constTables(tokens: Token[]): Map<string, Token[]> {
  const out = new Map<string, Token[]>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (!isIdent(tokens[i], "const") || !isIdent(tokens[i + 1])) continue;
    let k = i + 2;
    if (isPunct(tokens[k], ":")) k = expressionEndAt(tokens, k + 1, "=");
    if (!isPunct(tokens[k], "=") || !isPunct(tokens[k + 1], "{")) continue;
    const close = matching(tokens, k + 1);
    const values: Token[] = [];
    for (let j = k + 2; j < close; j++)
      if (tokens[j].type === "string" && isPunct(tokens[j - 1], ":")) values.push(tokens[j]);
    out.set(tokens[i + 1].value, values);
  }
  return out;
}

/** Index of the first top-level `stop` punctuator from `start` (skips a type annotation). */
function expressionEndAt(tokens: Token[], start: number, stop: string): number {
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== "punct") continue;
    if (t.value === stop && depth === 0) return i;
    if (t.value === "(" || t.value === "[" || t.value === "{" || t.value === "<") depth++;
    else if (t.value === ")" || t.value === "]" || t.value === "}" || t.value === ">") depth--;
    if (t.value === ";" && depth === 0) return i;
  }
  return tokens.length;
}

function scanTokens(tokens: Token[], emitters: Map<string, Set<number>>): Found[] {
  const out: Found[] = [];
  const tables = constTables(tokens);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== "ident") continue;
    // `code(segments) { … return "x" … }`: a method that chooses the code.
    if (t.value === "code" && isPunct(tokens[i + 1], "(") && !isPunct(tokens[i - 1], ".")) {
      const close = matching(tokens, i + 1);
      if (declarationBodyFollows(tokens, close)) {
        let open = close + 1;
        while (open < tokens.length && !isPunct(tokens[open], "{")) open++;
        const end = matching(tokens, open);
        for (let j = open; j < end; j++)
          if (isIdent(tokens[j], "return"))
            out.push(...literalsIn(tokens, j + 1, expressionEnd(tokens, j + 1), "property", tables));
        i = end;
        continue;
      }
    }
    // `code: …`, `code?: …`, `code = …` (not `==`/`===`, which are single tokens).
    if (t.value === "code") {
      let k = i + 1;
      if (isPunct(tokens[k], "?")) k++;
      // After a `.` only an assignment makes a code (`err.code = "x"`); `a ? e.code : "y"` is a ternary.
      const member = isPunct(tokens[i - 1], ".") || isPunct(tokens[i - 1], "?.");
      // An object literal is never a code (`code: { type: "positional" }` defines an argument named code).
      if ((isPunct(tokens[k], "=") || (isPunct(tokens[k], ":") && !member)) && !isPunct(tokens[k + 1], "{")) {
        out.push(...literalsIn(tokens, k + 1, expressionEnd(tokens, k + 1), "property", tables));
      }
      continue;
    }
    // `type XCode = "a" | "b";`
    if (
      t.value === "type" &&
      isIdent(tokens[i + 1]) &&
      tokens[i + 1].value.includes("Code") &&
      isPunct(tokens[i + 2], "=")
    ) {
      out.push(...literalsIn(tokens, i + 3, expressionEnd(tokens, i + 3), "type", tables));
      continue;
    }
    const positions = emitters.get(t.value);
    if (!positions || !isPunct(tokens[i + 1], "(")) continue;
    if (isIdent(tokens[i - 1], "function")) continue;
    const close = matching(tokens, i + 1);
    if (isPunct(tokens[close + 1], "{") || (isPunct(tokens[close + 1], ":") && declarationBodyFollows(tokens, close)))
      continue;
    const args = splitArgs(tokens, i + 1, close);
    for (const p of positions) {
      const range = args[p];
      if (range) out.push(...literalsIn(tokens, range[0], range[1], "call", tables));
    }
  }
  return out;
}
