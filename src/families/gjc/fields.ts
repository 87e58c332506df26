import type { Code } from "../../core/codes.ts";
import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { didYouMean } from "../../core/suggest.ts";
import { GJC_MANIFEST } from "../detect.ts";
import { CONTROL_CHARS, SAFE_NAME, SHA256_HEX } from "./constants.ts";

/** Diagnostics about the manifest point into it with a JSON pointer after this prefix. */
export const MANIFEST_PTR = `${GJC_MANIFEST}#`;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** "a number", "an array", "null": for "must be X, not Y" messages. */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return v.trim() === "" ? "an empty string" : "a string";
  return `a ${typeof v}`;
}

/**
 * A user-supplied string as it may appear in a message: JSON-quoted so control characters
 * and escape sequences are shown, never emitted, and shortened so a hostile value cannot
 * flood the terminal.
 */
export function quote(s: string, max = 80): string {
  const cut = s.length > max ? `${s.slice(0, max)}…` : s;
  return JSON.stringify(cut);
}

/**
 * Text from elsewhere (a policy verdict that quotes the manifest) made safe for a terminal:
 * each control character becomes a `\u` escape with four hex digits.
 */
export function visible(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The text without one leading U+FEFF (what `replace(/^\uFEFF/, "")` does, without a regex). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const SAFE_NAME_RULE = '1-128 characters of letters, digits, ".", "_" or "-", starting with a letter or digit';

/** Label used in messages: `tools[0].name`, `mcpServers["docs"].url`. */
export type Label = string;

/**
 * Reads a required non-empty string; reports `invalid_manifest` (or the given code) and
 * returns undefined when it is missing or not a string.
 */
export function requiredString(
  sink: DiagnosticSink,
  obj: Record<string, unknown>,
  key: string,
  label: Label,
  at: string,
  code: Code = "invalid_manifest",
): string | undefined {
  const v = obj[key];
  if (typeof v === "string" && v.trim() !== "") return v;
  const what = v === undefined ? "is missing" : `must be a non-empty string, not ${describeValue(v)}`;
  sink.error(code, `${at}/${escapeKey(key)}`, `${label === "" ? `"${key}"` : `${label}.${key}`} ${what}.`);
  return undefined;
}

/** An optional non-empty string: undefined when absent, reported when of the wrong shape. */
export function optionalString(
  sink: DiagnosticSink,
  obj: Record<string, unknown>,
  key: string,
  label: Label,
  at: string,
): string | undefined {
  if (!(key in obj) || obj[key] === undefined) return undefined;
  return requiredString(sink, obj, key, label, at);
}

/** A safe name (names, events, targets, activation args). */
export function checkSafeName(
  sink: DiagnosticSink,
  value: string | undefined,
  field: Label,
  at: string,
  code: Code = "invalid_manifest",
): string | undefined {
  if (value === undefined) return undefined;
  if (SAFE_NAME.test(value)) return value;
  sink.error(
    code,
    at,
    `${field} is ${quote(value)}; it must be ${SAFE_NAME_RULE}.`,
    "Names become parts of extension ids and file names, so they are kept to a safe alphabet.",
  );
  return undefined;
}

/** Prose (descriptions) must not carry control characters that could rewrite a terminal or prompt. */
export function checkProse(
  sink: DiagnosticSink,
  value: string | undefined,
  field: Label,
  at: string,
  code: Code = "invalid_manifest",
): string | undefined {
  if (value === undefined) return undefined;
  const m = CONTROL_CHARS.exec(value);
  if (!m) return value;
  sink.error(
    code,
    at,
    `${field} contains the control character U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}.`,
    "Remove control characters (including tabs and line breaks) from the text.",
  );
  return undefined;
}

/** A declared sha256 is 64 hex digits; case does not matter (it is compared lowercased). */
export function optionalSha256(
  sink: DiagnosticSink,
  obj: Record<string, unknown>,
  label: Label,
  at: string,
): string | undefined {
  const v = optionalString(sink, obj, "sha256", label, at);
  if (v === undefined) return undefined;
  if (SHA256_HEX.test(v)) return v.toLowerCase();
  sink.error(
    "invalid_manifest",
    `${at}/sha256`,
    `${label}.sha256 must be 64 hexadecimal digits.`,
    "Leave sha256 out, or set it to the SHA-256 of the file (sha256sum <file>).",
  );
  return undefined;
}

/** Reports keys outside `allowed` (with a suggestion) and returns whether all were known. */
export function checkEntryKeys(
  sink: DiagnosticSink,
  obj: Record<string, unknown>,
  allowed: readonly string[],
  label: Label,
  at: string,
  skip: readonly string[] = [],
): boolean {
  let ok = true;
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key) || skip.includes(key)) continue;
    ok = false;
    sink.error(
      "invalid_manifest",
      `${at}/${escapeKey(key)}`,
      `${label} has an unknown key ${quote(key)}.${didYouMean(key, allowed)}`,
      `An entry here takes ${allowed.join(", ")}.`,
    );
  }
  return ok;
}

/**
 * One pointer segment: RFC 6901 escaping, then, because our pointers live in a URI fragment
 * (`gajae-plugin.json#/…`), percent-encoding of `%`, spaces and control characters, so a
 * hostile key can never put raw escape sequences on a terminal.
 */
export function escapeKey(key: string | number): string {
  return String(key)
    .replace(/~/g, "~0")
    .replace(/\//g, "~1")
    .replace(/[%\s\u0000-\u001f\u007f-\u009f]/g, encodeURIComponent);
}
