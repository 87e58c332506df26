/**
 * The one reason an on-disk document fails its schema (the disk-schemas.generated.ts files),
 * naming the field and its JSON pointer, e.g. `files[0].size must be a number, not a string
 * (at /files/0/size)`. The fast JSON walk answers valid documents; TypeBox explains the rest
 * (src/families/c2/schema-errors.ts, the same error walk as the bundle schemas).
 */
import type { Code } from "../core/codes.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { schemaDiagnostics, type LazySchema } from "../families/c2/schema-errors.ts";

/** Messages name fields as `a.b[0].c` from the root; no code: only the message is kept, never emitted as a diagnostic. */
const MAPPING = { at: "#", label: "", nestedLabel: "", code: (): Code => "invalid_manifest" };

export function documentProblem(schema: LazySchema, value: unknown): string | undefined {
  // The deepest error wins: for `null` or an object, a bad field inside the object says more than "must be null".
  let best: Diagnostic | undefined;
  for (const d of schemaDiagnostics(schema, value, MAPPING))
    if (best === undefined || (d.path ?? "").length > (best.path ?? "").length) best = d;
  if (best === undefined) return undefined;
  return `${best.message.replace(/\.$/, "")} (at ${(best.path ?? "#").slice(1) || "/"})`;
}
