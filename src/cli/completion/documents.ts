/**
 * `gjc completion <shell> --json` (gjc/completion@1): the completion model, as a closed TypeBox
 * schema; docs/json/completion.schema.json is generated from it (`bun scripts/gen-verb-schemas.ts`).
 */
import Type from "typebox";
import { closed, str } from "../../core/schema-kit.ts";
import { errorDocument } from "../../store/documents.ts";

export const CompletionDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/completion@1"),
    ok: Type.Literal(true),
    shell: str,
    commands: Type.Array(
      Type.Object(
        {
          path: Type.Array(str),
          description: str,
          children: Type.Array(Type.Object({ name: str, description: str }, closed)),
          options: Type.Array(
            Type.Object(
              { name: str, description: str, takesValue: Type.Boolean(), values: Type.Optional(Type.Array(str)) },
              closed,
            ),
          ),
        },
        closed,
      ),
    ),
  },
  closed,
);

export const COMPLETION_DOCUMENTS = {
  "gjc/completion@1": {
    file: "completion.schema.json",
    title: "gjc completion --json",
    schema: Type.Union([CompletionDocumentSchema, errorDocument("completion")]),
  },
};
