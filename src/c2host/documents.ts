/**
 * The C2 runtime verbs' `--json` documents: lsp list/probe, plugin run (gjc/plugin-run@1), connector invoke
 * (gjc/plugin-connector-invoke@1) and ui list/invoke (gjc/plugin-ui-list@1, gjc/plugin-ui-invoke@1)
 * as closed TypeBox schemas; docs/json/*.schema.json are generated from them
 * (`bun scripts/gen-verb-schemas.ts`). A command's `result` is the runtime's own answer, so it
 * stays unknown, and so does a host action's input.
 */
import Type from "typebox";
import { errorDocument, sandboxWarningsField } from "../store/documents.ts";
import { closed, nullable, str } from "../core/schema-kit.ts";

const PluginRefSchema = Type.Object({ id: str, name: str, version: str }, closed);
const RealmSchema = Type.Union([
  Type.Object({ kind: Type.Literal("user") }, closed),
  Type.Object({ kind: Type.Literal("project"), projectPath: str }, closed),
]);
const base = { ok: Type.Literal(true), plugin: PluginRefSchema, realm: RealmSchema };
// Whether a contribution can be used now (src/c2host/availability.ts), as gjc/c2-session@1 says it.
const AvailabilitySchema = Type.Enum(["ready", "disabled", "untrusted", "quarantined", "pending", "unavailable"]);
const ReasonsSchema = Type.Array(Type.Object({ code: str, message: str }, closed));

export const RunDocumentSchema = Type.Object(
  { schema: Type.Literal("gjc/plugin-run@1"), ...base, command: str, result: Type.Unknown(), ...sandboxWarningsField },
  closed,
);

export const ConnectorInvokeDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/plugin-connector-invoke@1"),
    ...base,
    connector: str,
    provider: str,
    operation: str,
    capability: str,
    result: Type.Unknown(),
  },
  closed,
);

export const UiListDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/plugin-ui-list@1"),
    ok: Type.Literal(true),
    contributions: Type.Array(
      Type.Object(
        {
          plugin: str,
          pluginName: str,
          id: str,
          componentId: str,
          slot: str,
          label: str,
          description: str,
          command: str,
          order: Type.Number(),
          status: AvailabilitySchema,
          reasons: ReasonsSchema,
        },
        closed,
      ),
    ),
  },
  closed,
);

const HostActionSchema = Type.Object(
  {
    id: str,
    label: str,
    detail: str,
    state: Type.Enum(["default", "running", "attention", "failure"]),
    enabled: Type.Boolean(),
    input: nullable(Type.Record(str, Type.Unknown())),
    accessibilityLabel: str,
  },
  closed,
);
export const UiInvokeDocumentSchema = Type.Union([
  Type.Object(
    {
      schema: Type.Literal("gjc/plugin-ui-invoke@1"),
      ok: Type.Literal(true),
      operation: Type.Literal("render"),
      plugin: str,
      contribution: str,
      items: Type.Array(HostActionSchema),
    },
    closed,
  ),
  Type.Object(
    {
      schema: Type.Literal("gjc/plugin-ui-invoke@1"),
      ...base,
      operation: Type.Literal("invoke"),
      contribution: str,
      command: str,
      result: Type.Unknown(),
    },
    closed,
  ),
]);

const LspProviderSchema = Type.Object({ plugin: str, pluginName: str, server: str, command: str }, closed);
export const LspListDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/plugin-lsp-list@1"),
    ok: Type.Literal(true),
    servers: Type.Array(
      Type.Object(
        {
          plugin: str,
          pluginName: str,
          server: str,
          languages: Type.Array(str),
          command: str,
          status: AvailabilitySchema,
          reasons: ReasonsSchema,
        },
        closed,
      ),
    ),
    languages: Type.Array(
      Type.Object(
        { language: str, provider: nullable(LspProviderSchema), providers: Type.Array(LspProviderSchema) },
        closed,
      ),
    ),
    conflicts: Type.Array(str),
  },
  closed,
);
// serverInfo and capabilities are the language server's own initialize answer; env maps are the manifest's.
export const LspProbeDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/plugin-lsp-probe@1"),
    ok: Type.Literal(true),
    plugin: str,
    server: str,
    languages: Type.Array(str),
    command: str,
    cwd: str,
    serverInfo: Type.Unknown(),
    capabilities: Type.Unknown(),
    ...sandboxWarningsField,
    pid: Type.Integer({ minimum: 0 }),
    launch: Type.Object(
      { command: str, args: Type.Array(str), env: Type.Record(str, str), cwd: str, exported: Type.Record(str, str) },
      closed,
    ),
  },
  closed,
);

/** `gjc host --stdio --json`: how many requests the host served before it stopped. */
export const HostDocumentSchema = Type.Object(
  { schema: Type.Literal("gjc/host@1"), ok: Type.Literal(true), served: Type.Integer({ minimum: 0 }) },
  closed,
);

export const C2HOST_DOCUMENTS = {
  "gjc/host@1": {
    file: "host.schema.json",
    title: "gjc host --stdio --json",
    schema: Type.Union([HostDocumentSchema, errorDocument("host")]),
  },
  "gjc/plugin-lsp-list@1": {
    file: "plugin-lsp-list.schema.json",
    title: "gjc plugin lsp list --json",
    schema: Type.Union([LspListDocumentSchema, errorDocument("plugin-lsp-list")]),
  },
  "gjc/plugin-lsp-probe@1": {
    file: "plugin-lsp-probe.schema.json",
    title: "gjc plugin lsp probe --json",
    schema: Type.Union([LspProbeDocumentSchema, errorDocument("plugin-lsp-probe")]),
  },
  "gjc/plugin-run@1": {
    file: "plugin-run.schema.json",
    title: "gjc plugin run --json",
    schema: Type.Union([RunDocumentSchema, errorDocument("plugin-run")]),
  },
  "gjc/plugin-connector-invoke@1": {
    file: "plugin-connector-invoke.schema.json",
    title: "gjc plugin connector invoke --json",
    schema: Type.Union([ConnectorInvokeDocumentSchema, errorDocument("plugin-connector-invoke")]),
  },
  "gjc/plugin-ui-list@1": {
    file: "plugin-ui-list.schema.json",
    title: "gjc plugin ui list --json",
    schema: Type.Union([UiListDocumentSchema, errorDocument("plugin-ui-list")]),
  },
  "gjc/plugin-ui-invoke@1": {
    file: "plugin-ui-invoke.schema.json",
    title: "gjc plugin ui invoke --json",
    schema: Type.Union([UiInvokeDocumentSchema, errorDocument("plugin-ui-invoke")]),
  },
};
