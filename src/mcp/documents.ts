/**
 * `gjc plugin mcp list/probe/accept --json` (gjc/mcp-list@1, gjc/mcp-probe@1, gjc/mcp-accept@1)
 * as closed TypeBox schemas; docs/json/*.schema.json are generated from them
 * (`bun scripts/gen-verb-schemas.ts`) and every e2e document is checked against them. What the
 * MCP server itself answers (capabilities, tool input schemas, annotations) stays open.
 */
import Type from "typebox";
import { errorDocument, sandboxWarningsField, ScopeSchema } from "../store/documents.ts";
import { closed, nullable, opt, str, strs } from "../core/schema-kit.ts";

const ReasonSchema = Type.Object({ code: str, message: str }, closed);
const hex64 = Type.String({ pattern: "^[0-9a-f]{64}$" });

/** A C2 bundle's MCP server as `mcp list` and the C2 session document show it. Launch env and headers are the bundle's own maps. */
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
    probe: Type.Union([
      Type.Object({ ok: Type.Literal(true) }, closed),
      Type.Object({ ok: Type.Literal(false), code: Type.Literal("security_policy"), message: str }, closed),
    ]),
    launch: opt(Type.Object({ command: str, args: strs, env: Type.Record(str, str), cwd: str }, closed)),
    url: opt(str),
    headers: opt(Type.Record(str, str)),
    file: Type.Object({ path: str, sha256: hex64 }, closed),
  },
  closed,
);

const GjcServerSchema = Type.Object(
  {
    family: Type.Literal("gjc"),
    scope: ScopeSchema,
    bundle: str,
    server: str,
    surfaceId: str,
    transport: Type.Enum(["stdio", "http", "sse"]),
    target: str,
    status: Type.Enum(["active", "disabled", "quarantined", "excluded"]),
    reasons: Type.Array(ReasonSchema),
    policy: Type.Union([
      Type.Object({ ok: Type.Literal(true) }, closed),
      Type.Object({ ok: Type.Literal(false), code: Type.Literal("security_policy"), message: str }, closed),
    ]),
  },
  closed,
);

export const McpListDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/mcp-list@1"),
    ok: Type.Boolean(),
    servers: Type.Array(Type.Union([GjcServerSchema, C2McpEntrySchema])),
    scopes: Type.Array(Type.Object({ scope: ScopeSchema, ok: Type.Boolean(), problem: opt(str) }, closed)),
  },
  closed,
);

const ToolSchema = Type.Object(
  {
    name: str,
    title: opt(str),
    description: opt(str),
    inputSchema: Type.Record(str, Type.Unknown()),
    annotations: opt(Type.Record(str, Type.Unknown())),
  },
  closed,
);
const ToolDefinitionSchema = Type.Object({}); // the pinned definition as the server gave it
const PinSchema = Type.Object(
  {
    status: Type.Enum(["pinned", "verified", "accepted", "unchanged"]),
    toolsDigest: str,
    // Over the tools, the instructions, the prompts and the resources: what a host compares.
    digest: str,
    changes: Type.Array(
      Type.Object(
        {
          tool: str,
          change: Type.Enum(["added", "removed", "changed"]),
          fields: strs,
          before: nullable(ToolDefinitionSchema),
          after: nullable(ToolDefinitionSchema),
        },
        closed,
      ),
    ),
    servedChanges: Type.Array(
      Type.Object(
        {
          kind: Type.Enum(["instructions", "prompt", "resource"]),
          name: str,
          change: Type.Enum(["added", "removed", "changed"]),
        },
        closed,
      ),
    ),
  },
  closed,
);
const probeDocument = (verb: "mcp-probe" | "mcp-accept") =>
  Type.Object(
    {
      schema: Type.Literal(`gjc/${verb}@1`),
      ok: Type.Literal(true),
      family: opt(Type.Enum(["gjc", "c2"])),
      id: opt(str),
      scope: opt(ScopeSchema),
      bundle: str,
      server: str,
      transport: str,
      serverInfo: Type.Object({ name: str, version: str, title: opt(str) }, closed),
      protocolVersion: str,
      capabilities: Type.Record(str, Type.Unknown()),
      instructions: opt(str),
      tools: Type.Array(ToolSchema),
      // What the server lists besides tools, when it advertises the capability (pinned too).
      prompts: opt(Type.Array(Type.Record(str, Type.Unknown()))),
      resources: opt(Type.Array(Type.Record(str, Type.Unknown()))),
      stderr: opt(str),
      pin: PinSchema,
      ...sandboxWarningsField,
    },
    closed,
  );

export const MCP_DOCUMENTS = {
  "gjc/mcp-list@1": {
    file: "mcp-list.schema.json",
    title: "gjc plugin mcp list --json",
    schema: Type.Union([McpListDocumentSchema, errorDocument("mcp-list")]),
  },
  "gjc/mcp-probe@1": {
    file: "mcp-probe.schema.json",
    title: "gjc plugin mcp probe --json",
    schema: Type.Union([probeDocument("mcp-probe"), errorDocument("mcp-probe")]),
  },
  "gjc/mcp-accept@1": {
    file: "mcp-accept.schema.json",
    title: "gjc plugin mcp accept --json",
    schema: Type.Union([probeDocument("mcp-accept"), errorDocument("mcp-accept")]),
  },
};
