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

// A number with a 3-digit exponent or 309+ digits is the only way to overflow a double.
const MAYBE_HUGE_NUMBER = /[eE][+-]?0*[1-9]\d{2,}|\d{309,}/;

export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  // Shorter than the limit cannot be deeper than it: the common small file is not scanned.
  if (text.length > maxDepth) checkDepth(text, maxDepth);
  const value = JSON.parse(text);
  if (MAYBE_HUGE_NUMBER.test(text)) checkFinite(value);
  checkUniqueKeys(text, value);
  return value;
}

/** Where a parse refusal of `file` points: the repeated member (`plugin.json#/name`), else the file. */
export function jsonErrorPath(file: string, error: unknown): string {
  return error instanceof DuplicateKeyError ? `${file}#${error.pointer}` : file;
}

/**
 * Every repeated key drops one member from what JSON.parse returns, so the parsed value has as
 * many keys as the text has key tokens exactly when no key repeats. Counting both is a regex
 * pass and a walk (no allocation per string); only a mismatch pays for the walk that places
 * the duplicate. The string regex stays in step because the text is valid JSON already: a
 * quote outside a string always opens one.
 */
const STRING_TOKEN = /"(?:[^"\\]|\\.)*"(\s*:)?/g;

function checkUniqueKeys(text: string, value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  let keyTokens = 0;
  for (const m of text.matchAll(STRING_TOKEN)) if (m[1] !== undefined) keyTokens++;
  if (keyTokens === countKeys(value)) return;
  const dup = firstDuplicateKey(text);
  // Counts that differ with no duplicate found cannot happen for JSON.parse's output; fail closed.
  if (dup === undefined) throw new SyntaxError("a key appears twice in one object");
  const { line, column } = offsetToPosition(text, dup.offset);
  throw new DuplicateKeyError(dup.pointer, line, column);
}

function countKeys(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    if (Array.isArray(v)) {
      for (const child of v) if (typeof child === "object" && child !== null) stack.push(child);
      continue;
    }
    const keys = Object.keys(v); // own keys only, as JSON.parse made them
    n += keys.length;
    for (const key of keys) {
      const child = (v as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null) stack.push(child);
    }
  }
  return n;
}

function checkDepth(text: string, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) throw new SyntaxError(`nested deeper than ${maxDepth} levels`);
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/** Iterative (the depth is bounded already, but a wide document needs no recursion either). */
function checkFinite(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "number") {
      if (!Number.isFinite(v)) throw new SyntaxError("a number is too large to represent");
    } else if (typeof v === "object" && v !== null) {
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child);
    }
  }
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
