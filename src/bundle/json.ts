/**
 * JSON from a bundle, a catalog or a scope (issue #12, class 11). JSON.parse accepts any
 * nesting depth and any number; what the rest of gjc then does with the value does not: a
 * recursive schema check, a diagnostic that quotes it or a JSON.stringify overflows the stack on
 * a document nested thousands deep (exit 70), and `1e400` parses to Infinity, which JSON.stringify
 * writes back as `null`, so a record would no longer say what the bundle said. Every such file
 * is parsed here; a refusal is a SyntaxError, so each caller's existing "not valid JSON"
 * diagnostic (its own code: invalid_manifest, invalid_mcp, invalid_catalog…) reports it, the
 * same in validate and install because both run the same plan.
 *
 * A key repeated in one object (`{"name":"a","name":"b"}`) is refused too: JSON.parse keeps the
 * last, other readers keep the first or fail, so a hostile bundle could show a reviewer's tool
 * one manifest and gjc another. The error names the key's pointer and its line and column.
 *
 * -0 and integers past 2^53 are accepted as JSON.parse reads them (0, the nearest double):
 * values gjc compares or stores are strings, and the bytes installed are the bytes judged.
 */
import { firstDuplicateKey, offsetToPosition } from "../core/json-position.ts";

export const MAX_JSON_DEPTH = 128;

/** A repeated key: a SyntaxError (so every caller reports it as its file's invalid JSON), placed. */
export class DuplicateKeyError extends SyntaxError {
  constructor(
    /** JSON pointer of the repeated member, e.g. `/extensions/dev.codetwo/commands/0/id`. */
    readonly pointer: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(
      `the key at ${pointer} appears twice in one object (again at line ${line}, column ${column}); readers disagree on which one counts, so keep one`,
    );
    this.name = "DuplicateKeyError";
  }
}

export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  // Depth is judged on the text, before JSON.parse builds a value nested that deep.
  const keyTokens = scanStructure(text, maxDepth);
  const value = JSON.parse(text);
  const keys = countKeysOfFinite(value);
  if (keys !== keyTokens) throwDuplicateKey(text);
  return value;
}

/** Where a parse refusal of `file` points: the repeated member (`plugin.json#/name`), else the file. */
export function jsonErrorPath(file: string, error: unknown): string {
  return error instanceof DuplicateKeyError ? `${file}#${error.pointer}` : file;
}

/**
 * One pass over the text, outside its strings: the nesting depth (refused past `maxDepth`) and
 * the number of `:`, which in valid JSON is the number of members the text writes. Strings are
 * skipped with indexOf (an escaped quote is one preceded by an odd run of backslashes), so the
 * loop in JavaScript runs only over the few characters between them (on a 740 KB registry, a
 * third of the time of a character-by-character scan, and no match object per string). On
 * text that is not JSON the counts mean nothing, and JSON.parse refuses it next.
 */
function scanStructure(text: string, maxDepth: number): number {
  let depth = 0;
  let colons = 0;
  let at = 0;
  for (;;) {
    const quote = text.indexOf('"', at);
    const end = quote === -1 ? text.length : quote;
    for (let i = at; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x3a) colons++;
      else if (c === 0x7b || c === 0x5b) {
        if (++depth > maxDepth) throw new SyntaxError(`nested deeper than ${maxDepth} levels`);
      } else if (c === 0x7d || c === 0x5d) depth--;
    }
    if (quote === -1) return colons;
    let close = text.indexOf('"', quote + 1);
    for (;;) {
      if (close === -1) return colons;
      let before = close - 1;
      while (text.charCodeAt(before) === 0x5c) before--;
      if ((close - before) % 2 === 1) break;
      close = text.indexOf('"', close + 1);
    }
    at = close + 1;
  }
}

/**
 * Every repeated key drops one member from what JSON.parse returns, so the parsed value has as
 * many keys as the text has members exactly when no key repeats. The same walk refuses a number
 * too large for a double (JSON.parse made it Infinity). Iterative: the depth is bounded already,
 * but a wide document needs no recursion either.
 */
function countKeysOfFinite(value: unknown): number {
  let n = 0;
  if (typeof value !== "object" || value === null) {
    if (typeof value === "number" && !Number.isFinite(value)) throw tooLarge();
    return 0;
  }
  const stack: object[] = [value];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    if (Array.isArray(v)) {
      for (const child of v)
        if (typeof child === "object") {
          if (child !== null) stack.push(child);
        } else if (typeof child === "number" && !Number.isFinite(child)) throw tooLarge();
      continue;
    }
    const keys = Object.keys(v); // own keys only, as JSON.parse made them
    n += keys.length;
    for (const key of keys) {
      const child = (v as Record<string, unknown>)[key];
      if (typeof child === "object") {
        if (child !== null) stack.push(child);
      } else if (typeof child === "number" && !Number.isFinite(child)) throw tooLarge();
    }
  }
  return n;
}

const tooLarge = () => new SyntaxError("a number is too large to represent");

/** Only a count that differs pays for the walk that places the duplicate. */
function throwDuplicateKey(text: string): never {
  const dup = firstDuplicateKey(text);
  // Counts that differ with no duplicate found cannot happen for JSON.parse's output; fail closed.
  if (dup === undefined) throw new SyntaxError("a key appears twice in one object");
  const { line, column } = offsetToPosition(text, dup.offset);
  throw new DuplicateKeyError(dup.pointer, line, column);
}

/**
 * Whether a value (a runtime's or server's answer, already parsed) nests deeper than `max`:
 * printing it (JSON.stringify) would overflow the stack. Iterative, so the check itself cannot.
 */
export function nestedDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
