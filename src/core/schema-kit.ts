/**
 * The building blocks of every closed TypeBox schema (the `--json` documents and the files
 * gjc keeps on disk), so each schema file spells a field the same way. TypeBox is heavy: only
 * schema files import this, and code that runs imports their types alone.
 */
import Type, { type Static, type TSchema } from "typebox";
import type { Code } from "./codes.ts";
import type { Scope } from "./scope.ts";

/** Objects are closed: an unknown key is a different document. */
export const closed = { additionalProperties: false } as const;
export const str = Type.String();
export const strs = Type.Array(Type.String());
export const opt = Type.Optional;
export const count = Type.Integer({ minimum: 0 });
export const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** An error or diagnostic code: a string on the wire, one of core/codes.ts in the types. */
export const codeField = Type.Unsafe<Code>(Type.String());

/** The `schema` field of a `--json` document: `gjc/<verb>@1`. */
export const schemaField = (verb: string) => Type.Literal(`gjc/${verb}@1`);

export const FamilySchema = Type.Union([Type.Literal("gjc"), Type.Literal("c2")]);
export const ScopeSchema = Type.Union([Type.Literal("user"), Type.Literal("project")]);
// The schema and the one Scope type name the same scopes: a compile-time check, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type ScopeSchemaMatchesScope = Holds<Same<Static<typeof ScopeSchema>, Scope>>;

/** A validation finding (src/core/diagnostics.ts) as every document carries it. */
export const DiagnosticSchema = Type.Object(
  {
    code: codeField,
    severity: Type.Union([Type.Literal("error"), Type.Literal("warning")]),
    path: str,
    message: str,
    hint: opt(str),
  },
  closed,
);

/** The failure form of a verb's document: the GjcError the command ended with. */
export const errorDocument = (verb: string) =>
  Type.Object(
    {
      schema: schemaField(verb),
      ok: Type.Literal(false),
      error: Type.Object({ code: codeField, message: str, hint: opt(str), details: opt(Type.Unknown()) }, closed),
    },
    closed,
  );
