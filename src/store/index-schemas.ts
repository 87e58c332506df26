/**
 * Closed TypeBox schemas of the store's derived indexes (src/store/derived-index.ts): the GJC
 * list index (registry.index.json), the C2 records index (installed-index.json) and the files
 * stamp beside each C2 record. An index body that does not match is simply not used (the
 * reader takes the full, fail-closed read), so a reader never acts on a shape it did not write.
 * The JSON forms are generated into disk-schemas.generated.ts, so reading never loads TypeBox.
 */
import Type from "typebox";

const closed = { additionalProperties: false } as const;
const Strings = Type.Array(Type.String());
const IdList = Type.Array(Type.Object({ id: Type.String() }, closed));
const Digest = Type.Optional(Type.Object({ digest: Type.String() }, closed));

/** src/c2store/record.ts RecordFacts. */
const RecordFacts = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    version: Type.String(),
    enabled: Type.Boolean(),
    trusted: Type.Boolean(),
    capabilities: Digest,
    trusted_capabilities: Digest,
    updated_at: Type.String(),
    manifest: Type.Object(
      {
        codetwo: Type.Object(
          {
            runtime: Type.Union([Type.Null(), Type.Object({ scopeSupport: Strings, inject: Strings, optionalInject: Strings }, closed)]),
            ui: IdList,
            connectors: IdList,
            languageServers: IdList,
          },
          closed,
        ),
      },
      closed,
    ),
  },
  closed,
);

export const RecordsIndexSchema = Type.Array(Type.Object({ id: Type.String(), stamp: Type.String(), facts: RecordFacts }, closed));

/** src/install/summary.ts BundleSummary. */
const BundleSummary = Type.Object(
  {
    family: Type.Literal("gjc"),
    name: Type.String(),
    version: Type.String(),
    scope: Type.Enum(["user", "project"]),
    enabled: Type.Boolean(),
    quarantined: Type.Boolean(),
    counts: Type.Object({ surfaces: Type.Integer(), enabled: Type.Integer(), disabled: Type.Integer(), quarantined: Type.Integer() }, closed),
    source: Type.Object(
      { kind: Type.String(), display: Type.String(), ref: Type.Optional(Type.String()), sha: Type.Optional(Type.String()), resolvedAt: Type.Optional(Type.String()) },
      closed,
    ),
    installedAt: Type.String(),
    updatedAt: Type.String(),
    manifestHash: Type.String(),
    quarantine: Type.Array(Type.Object({ surfaceId: Type.String(), code: Type.String(), message: Type.String(), detectedAt: Type.String() }, closed)),
  },
  closed,
);

export const ListIndexSchema = Type.Object(
  { scope: Type.Enum(["user", "project"]), registryStamp: Type.String(), bundles: Type.Array(BundleSummary), mac: Type.String() },
  closed,
);

/** src/c2store/files-stamp.ts: the record's stamp and each file's stat stamp by path. */
export const FilesStampSchema = Type.Object({ record: Type.String(), files: Type.Record(Type.String(), Type.String()) }, closed);
