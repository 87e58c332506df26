/**
 * The closed TypeBox schema of the installed record `plugins/<id>/installed-plugin.json`: the
 * one definition of its shape (keys, types, the id grammar, the pass_env list). Rules a
 * schema cannot say (the id equals its directory, safe file paths through the path judge,
 * the stored manifest matches the record, the runtime/commands contract, denied variable
 * names, capability digests) are the explicit checks in record.ts.
 *
 * Start-up: record-schema.generated.ts holds this schema as plain JSON (scripts/gen-record-schemas.ts),
 * so checking valid records never loads TypeBox; only a failing record loads this file.
 */
import Type from "typebox";
import { ENV_NAME, MAX_PASS_ENV } from "../process/env.ts";

export const INSTALLED_ID_PATTERN = "^[a-z0-9][a-z0-9-]{0,60}-[0-9a-f]{8}$";
const closed = { additionalProperties: false } as const;
const OpenObject = Type.Object({});

const CatalogRef = Type.Object({ path: Type.String(), name: Type.String(), entry: Type.String() }, closed);

const Source = Type.Object(
  {
    kind: Type.Enum(["local", "github", "git", "archive"]),
    spec: Type.String(),
    display: Type.String(),
    identity: Type.String(),
    resolved: OpenObject,
    // Records from before catalogs have no "catalog"; they were accepted and still are.
    catalog: Type.Optional(Type.Union([Type.Null(), CatalogRef])),
  },
  closed,
);

const File = Type.Object({ path: Type.String(), size: Type.Number(), mode: Type.Number(), sha256: Type.String() }, closed);

const Quarantine = Type.Object({ reason: Type.String(), files: Type.Array(Type.String()), at: Type.String() }, closed);

/** The digest rule (recomputed over the other fields) is checked in src/audit/trust.ts. */
const Capabilities = Type.Object({
  digest: Type.String({ pattern: "^sha256:[0-9a-f]{64}$" }),
  processes: Type.Array(Type.Unknown()),
  endpoints: Type.Array(Type.Unknown()),
  env: Type.Array(Type.Unknown()),
  hostCommands: Type.Array(Type.Unknown()),
});

/** Only what the record's own rules read; the manifest was fully validated at install time. */
const StoredManifest = Type.Object({
  name: Type.String(),
  version: Type.String(),
  codetwo: Type.Object({ commands: Type.Array(Type.Unknown()) }),
});

export const InstalledRecordSchema = Type.Object(
  {
    schema_version: Type.Literal(1),
    id: Type.String({ pattern: INSTALLED_ID_PATTERN }),
    name: Type.String(),
    version: Type.String(),
    standard_version: Type.Literal("1.2.0"),
    enabled: Type.Boolean(),
    trusted: Type.Boolean(),
    scope: Type.Literal("user"),
    source: Source,
    installed_at: Type.String(),
    updated_at: Type.String(),
    files: Type.Array(File),
    total_bytes: Type.Number(),
    contributions: Type.Record(Type.String(), Type.Number()),
    components: Type.Array(Type.Unknown()),
    diagnostics: Type.Array(Type.Unknown()),
    quarantine: Type.Union([Type.Null(), Quarantine]),
    manifest: StoredManifest,
    pass_env: Type.Optional(Type.Array(Type.String({ pattern: ENV_NAME.source }), { maxItems: MAX_PASS_ENV })),
    capabilities: Type.Optional(Capabilities),
    trusted_capabilities: Type.Optional(Capabilities),
  },
  closed,
);
