/**
 * Closed TypeBox schemas for a C2 bundle's root mcp.json (Agent Plugins 1.0.0): the root and
 * the two server shapes. Kept apart from mcp.ts so validating a bundle loads TypeBox only
 * when a document fails the generated fast check (schemas.generated.ts).
 */
import Type from "typebox";
import { closed } from "../../core/schema-kit.ts";
import { AGENT_PLUGINS_MCP_SCHEMA } from "./rules.ts";

const StringMap = Type.Record(Type.String(), Type.String());
export const McpRootSchema = Type.Object(
  { $schema: Type.Literal(AGENT_PLUGINS_MCP_SCHEMA), mcpServers: Type.Record(Type.String(), Type.Object({})) },
  closed,
);
export const StdioServerSchema = Type.Object(
  {
    type: Type.Literal("stdio"),
    command: Type.String({ minLength: 1 }),
    args: Type.Optional(Type.Array(Type.String())),
    env: Type.Optional(StringMap),
    cwd: Type.Optional(Type.String()),
  },
  closed,
);
export const HttpServerSchema = Type.Object(
  {
    type: Type.Enum(["streamable-http", "sse"]),
    url: Type.String({ minLength: 1 }),
    headers: Type.Optional(StringMap),
  },
  closed,
);
