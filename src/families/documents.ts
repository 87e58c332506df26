/**
 * `gjc plugin validate --json` and `gjc marketplace validate --json` (gjc/validate@1): one
 * report for both families and catalogs, as a closed TypeBox schema. docs/json/validate.schema.json
 * is generated from it (`bun scripts/gen-verb-schemas.ts`) and every e2e document is checked
 * against it (test/helpers/cli.ts). Core keeps its own interfaces (src/families/types.ts).
 */
import Type from "typebox";
import { closed, count, DiagnosticSchema, errorDocument, nullable, opt, str } from "../core/schema-kit.ts";

/** A declared runtime command as every listing shows it (families/c2/command-surface.ts). */
export const CommandSurfaceSchema = Type.Object(
  { id: str, title: str, description: str, argsSchema: Type.Unknown() },
  closed,
);

const PlannedFileSchema = Type.Object(
  { path: str, sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }), bytes: count, mode: opt(count) },
  closed,
);
const SurfaceSchema = Type.Object({ id: str, kind: str, enabledByDefault: Type.Boolean() }, closed);
const ComponentSchema = Type.Object(
  { kind: str, name: str, path: str, status: Type.Enum(["ready", "requires-trust", "requires-auth", "unsupported"]) },
  closed,
);
const CatalogEntrySchema = Type.Object(
  { index: count, name: nullable(str), version: nullable(str), source: nullable(str), ok: Type.Boolean() },
  closed,
);

export const ValidateDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/validate@1"),
    ok: Type.Boolean(),
    strict: Type.Boolean(),
    family: Type.Enum(["gjc", "c2", "catalog"]),
    target: str,
    name: nullable(str),
    version: nullable(str),
    // Keys are the bundle's contribution kinds (data from the bundle), values their counts.
    contributions: opt(Type.Record(str, count)),
    components: opt(Type.Array(ComponentSchema)),
    surfaces: opt(Type.Array(SurfaceSchema)),
    files: opt(Type.Array(PlannedFileSchema)),
    entries: opt(Type.Array(CatalogEntrySchema)),
    commands: opt(Type.Array(CommandSurfaceSchema)),
    diagnostics: Type.Array(DiagnosticSchema),
  },
  closed,
);

export const FAMILY_DOCUMENTS = {
  "gjc/validate@1": {
    file: "validate.schema.json",
    title: "gjc plugin validate / gjc marketplace validate --json",
    schema: Type.Union([ValidateDocumentSchema, errorDocument("validate")]),
  },
};
