/**
 * `gjc plugin pack --json` (gjc/pack@1) and `gjc plugin init --json` (gjc/init@1) as closed
 * TypeBox schemas; docs/json/{pack,init}.schema.json are generated from them
 * (`bun scripts/gen-verb-schemas.ts`) and every e2e document is checked against them.
 */
import Type from "typebox";
import { errorDocument, FamilySchema, sandboxWarningsField } from "../store/documents.ts";
import { closed, count, str } from "../core/schema-kit.ts";

const hex64 = Type.String({ pattern: "^[0-9a-f]{64}$" });

export const PackDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/pack@1"),
    ok: Type.Literal(true),
    file: str,
    sha256: hex64,
    bytes: count,
    family: FamilySchema,
    name: str,
    version: str,
    entries: Type.Array(Type.Object({ path: str, sha256: hex64, bytes: count, mode: count }, closed)),
    signature: Type.Optional(
      Type.Object(
        { file: str, integrity: Type.String({ pattern: "^sha256:[0-9a-f]{64}$" }), fingerprint: str, keyType: str },
        closed,
      ),
    ),
  },
  closed,
);

export const InitDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/init@1"),
    ok: Type.Literal(true),
    dir: str,
    family: FamilySchema,
    name: str,
    files: Type.Array(Type.Object({ path: str, bytes: count }, closed)),
    subskill: Type.Optional(Type.Object({ parent: str, phase: str, activationArg: str }, closed)),
    // untouched: package.json left as it is, because writing it back would change what it says.
    packageScript: Type.Enum(["added", "kept", "none", "untouched"]),
  },
  closed,
);

export const TestDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/test@1"),
    ok: Type.Boolean(),
    family: FamilySchema,
    dir: str,
    name: Type.Union([str, Type.Null()]),
    version: Type.Union([str, Type.Null()]),
    checks: Type.Array(
      Type.Object(
        {
          rule: str,
          ok: Type.Boolean(),
          skipped: Type.Optional(Type.Boolean()),
          message: str,
          hint: Type.Optional(str),
          code: Type.Optional(str),
          latencyMs: Type.Optional(Type.Number({ minimum: 0 })),
        },
        closed,
      ),
    ),
    ...sandboxWarningsField,
  },
  closed,
);

export const AUTHORING_DOCUMENTS = {
  "gjc/test@1": {
    file: "test.schema.json",
    title: "gjc plugin test --json",
    schema: Type.Union([TestDocumentSchema, errorDocument("test")]),
  },
  "gjc/pack@1": {
    file: "pack.schema.json",
    title: "gjc plugin pack --json",
    schema: Type.Union([PackDocumentSchema, errorDocument("pack")]),
  },
  "gjc/init@1": {
    file: "init.schema.json",
    title: "gjc plugin init --json",
    schema: Type.Union([InitDocumentSchema, errorDocument("init")]),
  },
};
