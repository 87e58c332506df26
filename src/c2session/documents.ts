/**
 * `gjc plugin session --family c2 --json` (gjc/c2-session@1) as a closed TypeBox schema, and
 * the C2 MCP server entry it shares with `gjc plugin mcp list`. docs/json/c2-session.schema.json
 * is generated from it (`bun scripts/gen-verb-schemas.ts`) and every e2e document is checked
 * against it. Launch env and headers are the bundle's own maps, so they stay string records.
 */
import Type from "typebox";
import { closed, count, opt, str, strs } from "../core/schema-kit.ts";
import { errorDocument } from "../store/documents.ts";

const hex64 = Type.String({ pattern: "^[0-9a-f]{64}$" });
const ReasonSchema = Type.Object({ code: str, message: str }, closed);

export const C2McpEntrySchema = Type.Object(
  {
    family: Type.Literal("c2"),
    id: str,
    plugin: str,
    bundle: str,
    server: str,
    transport: Type.Enum(["stdio", "streamable-http", "sse"]),
    target: str,
    status: Type.Enum(["active", "disabled", "quarantined", "untrusted"]),
    reasons: Type.Array(ReasonSchema),
    probe: Type.Union([Type.Object({ ok: Type.Literal(true) }, closed), Type.Object({ ok: Type.Literal(false), code: Type.Literal("security_policy"), message: str }, closed)]),
    launch: opt(Type.Object({ command: str, args: strs, env: Type.Record(str, str), cwd: str }, closed)),
    url: opt(str),
    headers: opt(Type.Record(str, str)),
    file: Type.Object({ path: str, sha256: hex64 }, closed),
  },
  closed,
);

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
      Type.Object({ id: str, name: str, version: str, status: Type.Enum(["active", "disabled", "quarantined"]), trusted: Type.Boolean(), reasons: Type.Array(ReasonSchema) }, closed),
    ),
    skills: Type.Array(Type.Object({ ...item, files: Type.Array(VerifiedFileSchema) }, closed)),
    subagents: Type.Array(Type.Object({ ...item, model: opt(str), tools: opt(strs) }, closed)),
    promptCommands: Type.Array(Type.Object({ ...item, skillFallback: Type.Object({ name: str, description: str, instructions: str }, closed) }, closed)),
    mcpServers: Type.Array(C2McpEntrySchema),
  },
  closed,
);

export const C2SESSION_DOCUMENTS = {
  "gjc/c2-session@1": { file: "c2-session.schema.json", title: "gjc plugin session --family c2 --json", schema: Type.Union([C2SessionDocumentSchema, errorDocument("c2-session")]) },
};
