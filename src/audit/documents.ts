/**
 * The documents of the audit area as closed TypeBox schemas: `gjc plugin audit --json`
 * (gjc/audit@1), `gjc plugin mcp accept --json` (gjc/mcp-accept@1) and the pin file gjc writes
 * beside the installed state (mcp-pins.json). docs/json/*.schema.json are generated from them
 * (`bun scripts/gen-audit-schemas.ts`) and every e2e test document is checked against them
 * (test/helpers/cli.ts). Core imports only the types, so TypeBox never loads in the verbs.
 */
import Type from "typebox";

const closed = { additionalProperties: false } as const;
const str = Type.String();
const strs = Type.Array(Type.String());
const opt = Type.Optional;
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const digest = Type.String({ pattern: "^sha256:[0-9a-f]{64}$" });

const DeclaredAtSchema = Type.Object({ file: str, pointer: str }, closed);
const ProcessSchema = Type.Object(
  {
    id: str,
    kind: Type.Enum(["c2-runtime", "language-server", "mcp-stdio", "tool-module", "hook-module"]),
    name: str,
    command: str,
    args: strs,
    cwd: str,
    commandInBundle: Type.Boolean(),
    script: nullable(str),
    codeSha256: opt(digest),
    hostEnvironment: Type.Enum(["allow-list", "agent"]),
    at: DeclaredAtSchema,
  },
  closed,
);
const EndpointSchema = Type.Object({ id: str, kind: Type.Literal("mcp"), name: str, transport: str, url: str, scheme: str, host: str, headers: strs, at: DeclaredAtSchema }, closed);
const EnvSchema = Type.Object({ owner: str, name: str, mode: Type.Enum(["sets", "passes"]), from: nullable(str), at: DeclaredAtSchema }, closed);
const HookSchema = Type.Object({ id: str, name: str, event: str, target: nullable(str), phase: nullable(str), path: nullable(str), supported: Type.Boolean(), at: DeclaredAtSchema }, closed);
const HostSchema = Type.Object({ owner: str, kind: Type.Enum(["inject", "optional-inject", "ui-slot", "connector", "command"]), name: str, at: DeclaredAtSchema }, closed);
const PromptSchema = Type.Object(
  { id: str, kind: Type.Enum(["system-appendix", "agent-appendix", "subskill", "skill", "agent", "prompt-command"]), name: str, path: nullable(str), bytes: Type.Integer({ minimum: 0 }), sha256: digest },
  closed,
);

export const CapabilityModelSchema = Type.Object(
  {
    family: Type.Enum(["gjc", "c2"]),
    name: str,
    version: str,
    processes: Type.Array(ProcessSchema),
    endpoints: Type.Array(EndpointSchema),
    env: Type.Array(EnvSchema),
    hooks: Type.Array(HookSchema),
    hostCommands: Type.Array(HostSchema),
    prompts: Type.Array(PromptSchema),
    promptBytes: Type.Integer({ minimum: 0 }),
    files: Type.Object({ count: Type.Integer({ minimum: 0 }), bytes: Type.Integer({ minimum: 0 }) }, closed),
  },
  closed,
);

const section = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ added: Type.Array(item), removed: Type.Array(item), changed: Type.Array(Type.Object({ id: str, fields: strs, before: item, after: item }, closed)) }, closed);

export const CapabilityDiffSchema = Type.Object(
  {
    empty: Type.Boolean(),
    processes: section(ProcessSchema),
    endpoints: section(EndpointSchema),
    env: section(EnvSchema),
    hooks: section(HookSchema),
    hostCommands: section(HostSchema),
    prompts: Type.Object({ before: Type.Integer(), after: Type.Integer(), delta: Type.Integer(), added: strs, removed: strs, changed: strs }, closed),
    files: Type.Object({ before: Type.Integer(), after: Type.Integer(), bytesBefore: Type.Integer(), bytesAfter: Type.Integer() }, closed),
  },
  closed,
);

const FindingSchema = Type.Object(
  {
    ruleId: str,
    level: Type.Enum(["error", "warning", "note"]),
    subject: str,
    message: str,
    hint: str,
    at: DeclaredAtSchema,
    region: Type.Object({ line: Type.Integer({ minimum: 1 }), column: Type.Integer({ minimum: 1 }) }, closed),
  },
  closed,
);

export const AuditDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/audit@1"),
    ok: Type.Boolean(),
    subject: Type.Object(
      { kind: Type.Enum(["source", "installed"]), display: str, scope: nullable(Type.Enum(["user", "project"])), family: Type.Enum(["gjc", "c2"]), name: str, version: str },
      closed,
    ),
    capabilities: CapabilityModelSchema,
    findings: Type.Array(FindingSchema),
    counts: Type.Object({ error: Type.Integer({ minimum: 0 }), warning: Type.Integer({ minimum: 0 }), note: Type.Integer({ minimum: 0 }) }, closed),
    capabilityDiff: opt(CapabilityDiffSchema),
    against: opt(Type.Object({ name: str, display: str }, closed)),
    failOn: nullable(str),
    failing: Type.Integer({ minimum: 0 }),
  },
  closed,
);

const ToolDefinitionSchema = Type.Object({ name: str, title: opt(str), description: opt(str), inputSchema: Type.Record(Type.String(), Type.Unknown()), annotations: opt(Type.Record(Type.String(), Type.Unknown())) }, closed);
const ToolChangeSchema = Type.Object({ tool: str, change: Type.Enum(["added", "removed", "changed"]), fields: strs, before: nullable(ToolDefinitionSchema), after: nullable(ToolDefinitionSchema) }, closed);

export const McpPinFileSchema = Type.Object(
  {
    version: Type.Literal(1),
    servers: Type.Record(
      Type.String(),
      Type.Object(
        {
          family: Type.Enum(["gjc", "c2"]),
          scope: Type.Enum(["user", "project"]),
          bundle: str,
          server: str,
          binding: digest,
          pinnedAt: str,
          toolsDigest: digest,
          tools: Type.Record(Type.String(), Type.Object({ sha256: digest, definition: ToolDefinitionSchema }, closed)),
          drift: opt(Type.Object({ detectedAt: str, changes: Type.Array(ToolChangeSchema) }, closed)),
        },
        closed,
      ),
    ),
  },
  closed,
);

export const AUDIT_DOCUMENTS = {
  "gjc/audit@1": { file: "audit.schema.json", title: "gjc plugin audit --json (gjc/audit@1)", schema: AuditDocumentSchema },
  "gjc/mcp-pins@1": { file: "mcp-pins.schema.json", title: "mcp-pins.json: pinned MCP tool definitions (beside a GJC scope's registry.json, or in the C2 data directory)", schema: McpPinFileSchema },
} as const;
