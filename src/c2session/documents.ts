/**
 * `gjc plugin session --family c2 --json` (gjc/c2-session@1) as a closed TypeBox schema; its
 * C2 MCP server entries are the ones `gjc plugin mcp list` shows (mcp/documents.ts). docs/json/c2-session.schema.json
 * is generated from it (`bun scripts/gen-verb-schemas.ts`) and every e2e document is checked
 * against it. Launch env and headers are the bundle's own maps, so they stay string records.
 */
import Type from "typebox";
import { closed, count, opt, str, strs } from "../core/schema-kit.ts";
import { C2McpEntrySchema } from "../mcp/documents.ts";
import { errorDocument } from "../store/documents.ts";

const hex64 = Type.String({ pattern: "^[0-9a-f]{64}$" });
const ReasonSchema = Type.Object({ code: str, message: str }, closed);

const VerifiedFileSchema = Type.Object({ path: str, relativePath: str, sha256: hex64, bytes: count }, closed);
const item = { id: str, plugin: str, bundle: str, name: str, description: str, file: VerifiedFileSchema };

export const C2SessionDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/c2-session@1"),
    family: Type.Literal("c2"),
    ok: Type.Boolean(),
    projectDir: str,
    contentScope: Type.Literal("user"),
    bundles: Type.Array(
      // foreign: installed by the C2 app in the shared data directory; shown, never loaded.
      Type.Object(
        {
          id: str,
          name: str,
          version: str,
          status: Type.Enum(["active", "disabled", "quarantined", "foreign"]),
          trusted: Type.Boolean(),
          reasons: Type.Array(ReasonSchema),
        },
        closed,
      ),
    ),
    skills: Type.Array(Type.Object({ ...item, files: Type.Array(VerifiedFileSchema) }, closed)),
    subagents: Type.Array(Type.Object({ ...item, model: opt(str), tools: opt(strs) }, closed)),
    promptCommands: Type.Array(
      Type.Object(
        { ...item, skillFallback: Type.Object({ name: str, description: str, instructions: str }, closed) },
        closed,
      ),
    ),
    mcpServers: Type.Array(C2McpEntrySchema),
  },
  closed,
);

export const C2SESSION_DOCUMENTS = {
  "gjc/c2-session@1": {
    file: "c2-session.schema.json",
    title: "gjc plugin session --family c2 --json",
    schema: Type.Union([C2SessionDocumentSchema, errorDocument("c2-session")]),
  },
};
