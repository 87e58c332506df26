/**
 * The closed TypeBox schema of the installed record `plugins/<id>/installed-plugin.json`: the
 * one definition of its shape (keys, types, the id grammar, the pass_env list). Rules a
 * schema cannot say (the id equals its directory, safe file paths through the path judge,
 * the stored manifest matches the record, the runtime/commands contract, denied variable
 * names, capability digests) are the explicit checks in record.ts.
 *
 * Start-up: src/c2store/disk-schemas.generated.ts holds this schema as plain JSON
 * (scripts/gen-disk-schemas.ts), so checking valid records never loads TypeBox; only a failing
 * record loads this file. record.ts derives the record's TypeScript type from it.
 */
import Type from "typebox";
import { closed } from "../core/schema-kit.ts";
import { ENV_NAME, MAX_PASS_ENV } from "../process/env.ts";

export const INSTALLED_ID_PATTERN = "^[a-z0-9][a-z0-9-]{0,60}-[0-9a-f]{8}$";

/** Set when the bundle came from a catalog entry. */
const CatalogRef = Type.Object({ path: Type.String(), name: Type.String(), entry: Type.String() }, closed);

export const SourceKind = Type.Enum(["local", "github", "git", "archive"]);

export const Source = Type.Object(
  {
    kind: SourceKind,
    // The source as the user could type it again (credentials never kept).
    spec: Type.String(),
    // Human label: "GitHub · owner/repo", "Local · /path", "Marketplace · <catalog>".
    display: Type.String(),
    // The content-source identity the installed id is derived from (no ref, no commit).
    identity: Type.String(),
    // What the sources layer resolved (commit SHA, archive sha256, ref, url …).
    resolved: Type.Record(Type.String(), Type.Unknown()),
    // Records from before catalogs have no "catalog"; they were accepted and still are.
    catalog: Type.Optional(Type.Union([Type.Null(), CatalogRef])),
  },
  closed,
);

export const File = Type.Object(
  { path: Type.String(), size: Type.Number(), mode: Type.Number(), sha256: Type.String() },
  closed,
);

export const Quarantine = Type.Object(
  { reason: Type.String(), files: Type.Array(Type.String()), at: Type.String() },
  closed,
);

/** The digest rule (recomputed over the other fields) is checked in src/families/c2/trust.ts. */
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
    // Host variables the user passed to this plugin by name (`gjc plugin trust --pass-env`),
    // written only when there are some, so records without it stay byte-identical.
    pass_env: Type.Optional(Type.Array(Type.String({ pattern: ENV_NAME.source }), { maxItems: MAX_PASS_ENV })),
    // The process-relevant capabilities of the installed content (src/families/c2/trust.ts), written
    // by install/upgrade; absent in records from before capability-bound trust.
    capabilities: Type.Optional(Capabilities),
    // What `gjc plugin trust` approved; trust is outdated when its digest differs from `capabilities`.
    trusted_capabilities: Type.Optional(Capabilities),
    // The key that signed the installed content (src/signing/check.ts); later content signed
    // by another key is refused (signer_changed). Absent: installed unsigned.
    signer: Type.Optional(
      Type.Object(
        {
          fingerprint: Type.String({ pattern: "^SHA256:[A-Za-z0-9+/]{43}$" }),
          key_type: Type.Optional(Type.String()),
          identity: Type.Optional(Type.String()),
        },
        closed,
      ),
    ),
  },
  closed,
);
