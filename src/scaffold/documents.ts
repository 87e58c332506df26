/**
 * `gjc plugin scaffold list/apply --json` (gjc/plugin-scaffold-list@1, gjc/plugin-scaffold-apply@1)
 * as closed TypeBox schemas; docs/json/*.schema.json are generated from them
 * (`bun scripts/gen-verb-schemas.ts`) and every e2e document is checked against them.
 */
import Type from "typebox";
import { closed, count, str } from "../core/schema-kit.ts";
import { errorDocument } from "../store/documents.ts";

export const ScaffoldListDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/plugin-scaffold-list@1"),
    ok: Type.Literal(true),
    scaffolds: Type.Array(
      Type.Object(
        {
          plugin: str,
          pluginName: str,
          enabled: Type.Boolean(),
          quarantined: Type.Boolean(),
          id: str,
          name: str,
          path: str,
          title: str,
          description: str,
          files: count,
        },
        closed,
      ),
    ),
  },
  closed,
);

export const ScaffoldApplyDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/plugin-scaffold-apply@1"),
    ok: Type.Literal(true),
    plugin: str,
    pluginName: str,
    scaffold: Type.Object({ id: str, name: str, path: str, title: str }, closed),
    target: str,
    dryRun: Type.Boolean(),
    written: Type.Boolean(),
    createdTarget: Type.Boolean(),
    files: Type.Array(
      Type.Object({ path: str, bytes: count, sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }), mode: count }, closed),
    ),
  },
  closed,
);

export const SCAFFOLD_DOCUMENTS = {
  "gjc/plugin-scaffold-list@1": {
    file: "plugin-scaffold-list.schema.json",
    title: "gjc plugin scaffold list --json",
    schema: Type.Union([ScaffoldListDocumentSchema, errorDocument("plugin-scaffold-list")]),
  },
  "gjc/plugin-scaffold-apply@1": {
    file: "plugin-scaffold-apply.schema.json",
    title: "gjc plugin scaffold apply --json",
    schema: Type.Union([ScaffoldApplyDocumentSchema, errorDocument("plugin-scaffold-apply")]),
  },
};
