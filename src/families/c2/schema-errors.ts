/**
 * Turns TypeBox validation errors into diagnostics with JSON-pointer paths, stable codes
 * and plain-language messages. Every error is reported (TypeBox stops at 8 by default).
 *
 * TypeBox is not loaded for a valid document: TypeBox's own check, compiled at build time into
 * the generated schema modules (compiled-check.ts), answers it first, and only a document that
 * fails loads TypeBox (typebox-value.ts) and the TypeBox schema itself, so every message still
 * comes from TypeBox's own error walk.
 */
import type { Code } from "../../core/codes.ts";
import { pointer, type Diagnostic } from "../../core/diagnostics.ts";
import { didYouMean } from "../../core/suggest.ts";

/**
 * A schema in its two forms: TypeBox's check of it, compiled at build time (see
 * schemas.generated.ts), and the TypeBox original, loaded only to explain a failure.
 */
export interface LazySchema {
  check(value: unknown): boolean;
  load(): unknown;
}

const isLazy = (s: unknown): s is LazySchema =>
  typeof (s as LazySchema).load === "function" && typeof (s as LazySchema).check === "function";

export interface ErrorMapping {
  /** Pointer of the validated value, e.g. `plugin.json#/extensions/dev.codetwo`. */
  at: string;
  /** Dotted name of the validated value used in messages, e.g. `extensions.dev.codetwo` ("" for a root). */
  label: string;
  /** Base name for values inside it (defaults to `label`); "" gives `commands[3].id`. */
  nestedLabel?: string;
  /** The diagnostic code for an error at these segments (relative to the value). */
  code(segments: string[], keyword: string): Code;
  /** Human description of a regex, by pattern source. */
  patterns?: Record<string, string>;
  /** Extra hint for an unknown field, by field name (e.g. fields of newer standards). */
  unknownFieldHints?: Record<string, string>;
  /** Extra hint for a value refused by an enum, by value. */
  enumHints?: Record<string, string>;
}

interface TypeBoxError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, any>;
  message: string;
}

/** `schema` is a TypeBox schema or a LazySchema (whose TypeBox form is loaded only on failure). */
export function schemaDiagnostics(lazyOrSchema: unknown, value: unknown, m: ErrorMapping): Diagnostic[] {
  // Valid documents are the common case: the compiled check answers them in microseconds, while
  // loading TypeBox, building the schemas and its error walk cost milliseconds (start-up budget of validate).
  if (isLazy(lazyOrSchema) && lazyOrSchema.check(value)) return [];
  const schema = isLazy(lazyOrSchema) ? lazyOrSchema.load() : lazyOrSchema;
  const { Value } = require("./typebox-value.ts") as typeof import("./typebox-value.ts");
  // A TypeBox schema passed as it is (catalog entries) is checked by TypeBox, already loaded for it.
  if (!isLazy(lazyOrSchema) && Value.Check(schema as any, value)) return [];
  const out: Diagnostic[] = [];
  for (const e of Value.Errors(schema as any, value) as Iterable<TypeBoxError>) {
    // A closed object reports an extra key twice (false sub-schema + additionalProperties).
    if (e.keyword === "boolean") continue;
    const segments = decodePointer(e.instancePath);
    const here = segments.reduce((p, s) => pointer(p, s), m.at);
    const name = segments.length === 0 ? m.label : labelOf(m.nestedLabel ?? m.label, segments);
    const found = valueAt(value, segments);
    if (e.keyword === "additionalProperties") {
      const allowed = Object.keys((schemaAt(schema, e.schemaPath) as { properties?: object })?.properties ?? {});
      for (const key of e.params.additionalProperties as string[]) {
        const extra = m.unknownFieldHints?.[key];
        out.push({
          code: "unknown_field",
          severity: "error",
          path: pointer(here, key),
          message: `${name ? `${name} has an` : "An"} unknown field "${key}".${didYouMean(key, allowed)}`,
          hint: `${extra ? `${extra} ` : ""}Allowed fields: ${allowed.join(", ")}.`,
        });
      }
      continue;
    }
    if (e.keyword === "required") {
      for (const key of e.params.requiredProperties as string[]) {
        out.push({
          code: m.code([...segments, key], "required"),
          severity: "error",
          path: pointer(here, key),
          message: `${name ? `${name} is missing` : "Missing"} the required field "${key}".`,
          hint: `Add "${key}".`,
        });
      }
      continue;
    }
    const { problem, hint } = describe(e, found, m);
    out.push({
      code: m.code(segments, e.keyword),
      severity: "error",
      path: here,
      message: `${name || "The document"} ${problem}`,
      ...(hint ? { hint } : {}),
    });
  }
  return out;
}

function describe(e: TypeBoxError, found: unknown, m: ErrorMapping): { problem: string; hint?: string } {
  const shown = JSON.stringify(found);
  switch (e.keyword) {
    case "type":
      return { problem: `must be ${article(e.params.type)}, not ${kindOf(found)}.` };
    case "pattern": {
      const help = m.patterns?.[e.params.pattern];
      return { problem: `${shown} is not valid${help ? `: ${help}` : ` (must match ${e.params.pattern})`}.` };
    }
    case "minLength":
      return {
        problem: e.params.limit === 1 ? "must not be empty." : `must be at least ${e.params.limit} characters long.`,
      };
    case "maxLength":
      return { problem: `must be at most ${e.params.limit} characters long.` };
    case "minItems":
      return { problem: `must have at least ${e.params.limit} entr${e.params.limit === 1 ? "y" : "ies"}.` };
    case "maxItems":
      return { problem: `must have at most ${e.params.limit} entries.`, hint: "Split the bundle or drop entries." };
    case "minimum":
    case "maximum":
      return {
        problem: `${shown} is out of range (${e.keyword === "minimum" ? "at least" : "at most"} ${e.params.limit}).`,
      };
    case "enum": {
      const allowed = (e.params.allowedValues as unknown[]).map(String);
      const extra = typeof found === "string" ? m.enumHints?.[found] : undefined;
      return {
        problem: `${shown} is not allowed.${typeof found === "string" ? didYouMean(found, allowed) : ""}`,
        hint: `${extra ? `${extra} ` : ""}Use one of: ${allowed.join(", ")}.`,
      };
    }
    case "const":
      return { problem: `must be ${JSON.stringify(e.params.allowedValue ?? e.params.const)}, not ${shown}.` };
    default:
      return { problem: e.message };
  }
}

export function decodePointer(p: string): string[] {
  if (p === "") return [];
  return p
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** `commands[3].id` style names for messages. */
export function labelOf(base: string, segments: (string | number)[]): string {
  let out = base;
  for (const s of segments) {
    if (typeof s === "number" || /^\d+$/.test(s)) out += `[${s}]`;
    else out += out === "" ? s : `.${s}`;
  }
  return out;
}

function valueAt(value: unknown, segments: string[]): unknown {
  let v: any = value;
  for (const s of segments) v = v == null ? undefined : v[s];
  return v;
}

function schemaAt(schema: unknown, schemaPath: string): unknown {
  let s: any = schema;
  for (const seg of decodePointer(schemaPath.replace(/^#/, ""))) s = s == null ? undefined : s[seg];
  return s;
}

function article(type: string): string {
  const map: Record<string, string> = {
    object: "an object",
    array: "an array",
    integer: "an integer",
    string: "a string",
    number: "a number",
    boolean: "a boolean",
  };
  return map[type] ?? type;
}

export function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a number";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}
