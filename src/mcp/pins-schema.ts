/**
 * The closed TypeBox schema of `mcp-pins.json` (src/mcp/pins.ts): the one definition of its
 * shape, and of the types pins.ts uses. A file that does not match is never used or
 * overwritten (pins_corrupt). The JSON form is generated into src/mcp/disk-schemas.generated.ts,
 * so reading valid pins (at session start) never loads TypeBox.
 */
import Type from "typebox";
import { closed, nullable, str } from "../core/schema-kit.ts";

const digest = Type.String({ pattern: "^sha256:[0-9a-f]{64}$" });

/** What is hashed of a tool: everything a model or a user reads about it (the tool as listed). */
export const ToolDefinition = Type.Object(
  {
    name: str,
    title: Type.Optional(str),
    description: Type.Optional(str),
    inputSchema: Type.Record(Type.String(), Type.Unknown()),
    // Tool annotations (readOnlyHint, destructiveHint…), kept because tool pins hash them.
    annotations: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  closed,
);

export const ToolChange = Type.Object(
  {
    tool: str,
    change: Type.Enum(["added", "removed", "changed"]),
    // For `changed`: the fields that differ (description, inputSchema, annotations, title).
    fields: Type.Array(str),
    before: nullable(ToolDefinition),
    after: nullable(ToolDefinition),
  },
  closed,
);

export const ServerPin = Type.Object(
  {
    family: Type.Enum(["gjc", "c2"]),
    scope: Type.Enum(["user", "project"]),
    bundle: str,
    server: str,
    // Digest of the server's declaration and the bundled code it runs (src/mcp/pins-binding.ts).
    binding: digest,
    pinnedAt: str,
    // Digest over every tool hash (name order).
    toolsDigest: digest,
    // Closed records: a key TypeBox's "^.*$" does not match (one with a line break) is refused, not skipped.
    tools: Type.Record(Type.String(), Type.Object({ sha256: digest, definition: ToolDefinition }, closed), closed),
    // Set by a probe or verify --mcp that found the tools changed, until mcp accept re-pins.
    drift: Type.Optional(Type.Object({ detectedAt: str, changes: Type.Array(ToolChange) }, closed)),
  },
  closed,
);

export const McpPinFileSchema = Type.Object({ version: Type.Literal(1), servers: Type.Record(Type.String(), ServerPin, closed) }, closed);
