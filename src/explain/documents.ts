/**
 * `gjc explain --json` (gjc/explain@1): one page, or the list of every code (`--list`), as
 * closed TypeBox schemas; docs/json/explain.schema.json is generated from them
 * (`bun scripts/gen-verb-schemas.ts`).
 */
import Type from "typebox";
import { closed, errorDocument, str } from "../core/schema-kit.ts";

const schema = Type.Literal("gjc/explain@1");
const ok = Type.Literal(true);

export const ExplainPageDocumentSchema = Type.Object({ schema, ok, code: str, summary: str, text: str }, closed);
export const ExplainListDocumentSchema = Type.Object(
  { schema, ok, codes: Type.Array(Type.Object({ code: str, summary: str }, closed)) },
  closed,
);

export const EXPLAIN_DOCUMENTS = {
  "gjc/explain@1": {
    file: "explain.schema.json",
    title: "gjc explain --json",
    schema: Type.Union([ExplainPageDocumentSchema, ExplainListDocumentSchema, errorDocument("explain")]),
  },
};
