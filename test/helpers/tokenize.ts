/**
 * A small TypeScript tokenizer for the code inventory (dev-time only, never bundled into the
 * CLI). It knows just enough of the grammar to never mistake the inside of a comment, a
 * string, a template literal or a regular expression for code: that is what makes a text scan
 * for error codes trustworthy without pulling a full parser into the repository.
 */
export type TokenType = "ident" | "string" | "template" | "punct" | "number" | "regex";

export interface Token {
  type: TokenType;
  /** Identifier name, punctuator text, the decoded string value, or a template's raw text. */
  value: string;
  /** For templates: whether it has `${…}` substitutions (its value is then not a constant). */
  dynamic?: boolean;
  line: number;
}

const PUNCTUATORS = [
  ">>>=",
  "...",
  "===",
  "!==",
  "**=",
  "<<=",
  ">>=",
  ">>>",
  "&&=",
  "||=",
  "??=",
  "=>",
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "??",
  "?.",
  "++",
  "--",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "**",
  "<<",
  ">>",
];
/** After these a `/` starts a regular expression, not a division. */
const REGEX_AFTER_KEYWORDS = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "instanceof",
  "yield",
  "await",
]);

const isIdentStart = (c: string) => /[A-Za-z_$]/.test(c);
const isIdentPart = (c: string) => /[A-Za-z0-9_$]/.test(c);

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;

  const regexAllowed = (): boolean => {
    const prev = out[out.length - 1];
    if (!prev) return true;
    if (prev.type === "ident") return REGEX_AFTER_KEYWORDS.has(prev.value);
    if (prev.type === "punct") return prev.value !== ")" && prev.value !== "]" && prev.value !== "}";
    return false;
  };

  /** Reads a quoted string starting at `i` (the quote), returns its decoded-enough value. */
  const readQuoted = (quote: string): string => {
    let value = "";
    i++;
    while (i < n && src[i] !== quote) {
      if (src[i] === "\\") {
        value += src[i + 1] ?? "";
        i += 2;
        continue;
      }
      if (src[i] === "\n") line++;
      value += src[i++];
    }
    i++;
    return value;
  };

  /** Reads a template literal starting at the backtick; substitutions are skipped with their nesting. */
  const readTemplate = (): { raw: string; dynamic: boolean } => {
    const start = i;
    let dynamic = false;
    i++;
    while (i < n && src[i] !== "`") {
      if (src[i] === "\\") {
        i += 2;
        continue;
      }
      if (src[i] === "$" && src[i + 1] === "{") {
        dynamic = true;
        i += 2;
        skipBalancedExpression();
        continue;
      }
      if (src[i] === "\n") line++;
      i++;
    }
    i++;
    return { raw: src.slice(start + 1, i - 1), dynamic };
  };

  /** Skips the code of a `${…}` substitution up to its closing brace (strings and nested templates included). */
  const skipBalancedExpression = (): void => {
    let depth = 1;
    while (i < n && depth > 0) {
      const c = src[i];
      if (c === "{") depth++;
      else if (c === "}") depth--;
      if (c === "\n") line++;
      if (c === '"' || c === "'") {
        readQuoted(c);
        continue;
      }
      if (c === "`") {
        readTemplate();
        continue;
      }
      if (skipComment()) continue;
      i++;
    }
  };

  /** Skips a `//` or `/* … *\/` comment at `i` (counting its lines); false when there is none. */
  const skipComment = (): boolean => {
    if (src[i] !== "/") return false;
    if (src[i + 1] === "/") {
      while (i < n && src[i] !== "\n") i++;
      return true;
    }
    if (src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      const stop = end === -1 ? n : end + 2;
      for (let k = i; k < stop; k++) if (src[k] === "\n") line++;
      i = stop;
      return true;
    }
    return false;
  };

  while (i < n) {
    const c = src[i];
    if (c === "\n") {
      line++;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (skipComment()) continue;
    const at = line;
    if (c === '"' || c === "'") {
      out.push({ type: "string", value: readQuoted(c), line: at });
      continue;
    }
    if (c === "`") {
      const t = readTemplate();
      out.push({ type: "template", value: t.raw, dynamic: t.dynamic, line: at });
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(src[j])) j++;
      out.push({ type: "ident", value: src.slice(i, j), line: at });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(src[j])) j++;
      out.push({ type: "number", value: src.slice(i, j), line: at });
      i = j;
      continue;
    }
    if (c === "/" && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      while (j < n && src[j] !== "\n") {
        if (src[j] === "\\") {
          j += 2;
          continue;
        }
        if (src[j] === "[") inClass = true;
        else if (src[j] === "]") inClass = false;
        else if (src[j] === "/" && !inClass) break;
        j++;
      }
      j++;
      while (j < n && /[a-z]/.test(src[j])) j++;
      out.push({ type: "regex", value: src.slice(i, j), line: at });
      i = j;
      continue;
    }
    const p = PUNCTUATORS.find((q) => src.startsWith(q, i)) ?? c;
    out.push({ type: "punct", value: p, line: at });
    i += p.length;
  }
  return out;
}
