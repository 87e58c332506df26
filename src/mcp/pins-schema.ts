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

/** A change to what a server serves besides its tools: its instructions, a prompt, a resource. */
export const ServedChange = Type.Object(
  {
    kind: Type.Enum(["instructions", "prompt", "resource"]),
    name: str,
    change: Type.Enum(["added", "removed", "changed"]),
  },
  closed,
);

/**
 * The rest of what a server serves, pinned with its tools: the digest of its instructions (null
 * when it gives none) and one digest per prompt (by name) and per resource (by uri), each over
 * what a user or a model reads of it. Absent in pins made before these were pinned.
 */
export const Served = Type.Object(
  {
    instructions: nullable(digest),
    prompts: Type.Record(Type.String(), digest, closed),
    resources: Type.Record(Type.String(), digest, closed),
    // Digest over the tools digest and the three above: the one value a host compares.
    digest,
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
    served: Type.Optional(Served),
    // Set by a probe or verify --mcp that found the tools (or what else it serves) changed, until mcp accept re-pins.
    drift: Type.Optional(
      Type.Object(
        { detectedAt: str, changes: Type.Array(ToolChange), servedChanges: Type.Optional(Type.Array(ServedChange)) },
        closed,
      ),
    ),
  },
  closed,
);

export const McpPinFileSchema = Type.Object(
  { version: Type.Literal(1), servers: Type.Record(Type.String(), ServerPin, closed) },
  closed,
);
