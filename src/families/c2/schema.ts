/**
 * Closed TypeBox schemas for plugin.json: the Agent Plugins 1.0.0 root, its author, and the
 * dev.codetwo 1.2.0 extension with every array item. They hold the shape (types, closed key
 * sets, grammars, enums, integer and count bounds); rules a schema cannot say (trimming, code
 * point lengths, uniqueness, cross-field references, files on disk) live in manifest.ts.
 */
import Type from "typebox";
import { closed } from "../../core/schema-kit.ts";
import {
  AGENT_PLUGINS_SCHEMA,
  COMMAND_ID_MAX,
  COMMAND_ID_PATTERN,
  CONNECTOR_CAPABILITIES,
  MAX_COMMANDS,
  MAX_CONNECTORS,
  MAX_LANGUAGE_SERVERS,
  MAX_LANGUAGES,
  MAX_UI,
  NAME_MAX,
  NAME_PATTERN,
  ORDER_MAX,
  ORDER_MIN,
  PROTOCOL_PATTERN,
  SAFE_ID_PATTERN,
  SCOPES,
  SEMVER_PATTERN,
  UI_SLOTS,
} from "./rules.ts";

const StringList = Type.Array(Type.String());
const StringMap = Type.Record(Type.String(), Type.String());
const CommandId = Type.String({ pattern: COMMAND_ID_PATTERN, maxLength: COMMAND_ID_MAX });
const SafeId = Type.String({ pattern: SAFE_ID_PATTERN });

export const AuthorSchema = Type.Object(
  { name: Type.Optional(Type.String()), email: Type.Optional(Type.String()), url: Type.Optional(Type.String()) },
  closed,
);

export const ManifestRootSchema = Type.Object(
  {
    $schema: Type.Literal(AGENT_PLUGINS_SCHEMA),
    name: Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: NAME_PATTERN }),
    // Optional in Agent Plugins, required by C2 (catalogs match on it): checked in manifest.ts
    // so a missing version gets its own code.
    version: Type.Optional(Type.String({ pattern: SEMVER_PATTERN })),
    description: Type.Optional(Type.String()),
    author: Type.Optional(AuthorSchema),
    homepage: Type.Optional(Type.String()),
    repository: Type.Optional(Type.String()),
    license: Type.Optional(Type.String()),
    keywords: Type.Optional(StringList),
    // Every namespace must be an object; only dev.codetwo is validated further.
    extensions: Type.Optional(Type.Record(Type.String(), Type.Object({}))),
  },
  closed,
);

export const CommandSchema = Type.Object(
  {
    id: CommandId,
    title: Type.String(),
    description: Type.Optional(Type.String()),
    // Any JSON here; manifest.ts requires an object (or null, meaning absent).
    argsSchema: Type.Optional(Type.Unknown()),
  },
  closed,
);

export const RuntimeSchema = Type.Object(
  {
    command: Type.String(),
    protocol: Type.Optional(Type.String({ pattern: PROTOCOL_PATTERN })),
    args: Type.Optional(StringList),
    env: Type.Optional(StringMap),
    inject: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    optionalInject: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    scopeSupport: Type.Optional(Type.Array(Type.Enum([...SCOPES]))),
  },
  closed,
);

export const UiActionSchema = Type.Object(
  {
    id: SafeId,
    slot: Type.Enum([...UI_SLOTS]),
    label: Type.String(),
    description: Type.Optional(Type.String()),
    command: CommandId,
    input: Type.Optional(Type.Unknown()),
    order: Type.Optional(Type.Integer({ minimum: ORDER_MIN, maximum: ORDER_MAX })),
  },
  closed,
);

export const ConnectorSchema = Type.Object(
  {
    id: SafeId,
    provider: SafeId,
    command: CommandId,
    capabilities: Type.Array(Type.Enum([...CONNECTOR_CAPABILITIES]), { minItems: 1 }),
  },
  closed,
);

export const LanguageServerSchema = Type.Object(
  {
    id: SafeId,
    // At most MAX_LANGUAGES distinct ids: counted after case-folding and de-duplication (manifest.ts),
    // so ["zig", "Zig"] is one language. The bound here only keeps a hostile list small.
    languages: Type.Array(Type.String(), { minItems: 1, maxItems: MAX_LANGUAGES * 64 }),
    command: Type.String(),
    args: Type.Optional(StringList),
    env: Type.Optional(StringMap),
  },
  closed,
);

/** dev.codetwo without `standardVersion`'s value check: a foreign standard stops validation first. */
export const CodetwoSchema = Type.Object(
  {
    standardVersion: Type.String(),
    runtime: Type.Optional(RuntimeSchema),
    commands: Type.Optional(Type.Array(CommandSchema, { maxItems: MAX_COMMANDS })),
    ui: Type.Optional(Type.Array(UiActionSchema, { maxItems: MAX_UI })),
    connectors: Type.Optional(Type.Array(ConnectorSchema, { maxItems: MAX_CONNECTORS })),
    languageServers: Type.Optional(Type.Array(LanguageServerSchema, { maxItems: MAX_LANGUAGE_SERVERS })),
  },
  closed,
);
