/**
 * Closed TypeBox schemas of the store's derived indexes (src/store/derived-index.ts): the GJC
 * list index (registry.index.json), the C2 records index (installed-index.json) and the files
 * stamp beside each C2 record. An index body that does not match is simply not used (the
 * reader takes the full, fail-closed read), so a reader never acts on a shape it did not write.
 * The JSON forms are generated into disk-schemas.generated.ts, so reading never loads TypeBox;
 * the readers' TypeScript types are `Static<>` of these (type-only imports).
 */
import Type from "typebox";
import { closed, ScopeSchema } from "../core/schema-kit.ts";
import { GjcQuarantineSchema } from "./documents.ts";

const Strings = Type.Array(Type.String());
const IdList = Type.Array(Type.Object({ id: Type.String() }, closed));
const Digest = Type.Optional(Type.Object({ digest: Type.String() }, closed));

/**
 * The part of a C2 record the policy plane reads (catalog, effective policy, graph revision):
 * src/c2store/record.ts RecordFacts. A whole record is one; the records index keeps exactly this.
 */
export const RecordFactsSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    version: Type.String(),
    enabled: Type.Boolean(),
    trusted: Type.Boolean(),
    // Digests only (src/families/c2/trust.ts trustStateOf): trust is outdated when they differ.
    capabilities: Digest,
    trusted_capabilities: Digest,
    updated_at: Type.String(),
    manifest: Type.Object(
      {
        codetwo: Type.Object(
          {
            runtime: Type.Union([
              Type.Null(),
              Type.Object({ scopeSupport: Strings, inject: Strings, optionalInject: Strings }, closed),
            ]),
            // The declared commands with their host-readable metadata (argsSchema is the bundle's JSON).
            commands: Type.Array(
              Type.Object(
                { id: Type.String(), title: Type.String(), description: Type.String(), argsSchema: Type.Unknown() },
                closed,
              ),
            ),
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

/** `stamp`: the record file this entry was made from (fileStamp). */
export const RecordsIndexEntrySchema = Type.Object(
  { id: Type.String(), stamp: Type.String(), facts: RecordFactsSchema },
  closed,
);
export const RecordsIndexSchema = Type.Array(RecordsIndexEntrySchema);

/** What list/inspect show for one installed GJC bundle (src/install/summary.ts); never includes credentials. */
export const BundleSummarySchema = Type.Object(
  {
    family: Type.Literal("gjc"),
    name: Type.String(),
    version: Type.String(),
    scope: ScopeSchema,
    enabled: Type.Boolean(),
    quarantined: Type.Boolean(),
    counts: Type.Object(
      { surfaces: Type.Integer(), enabled: Type.Integer(), disabled: Type.Integer(), quarantined: Type.Integer() },
      closed,
    ),
    source: Type.Object(
      {
        kind: Type.String(),
        display: Type.String(),
        ref: Type.Optional(Type.String()),
        sha: Type.Optional(Type.String()),
        resolvedAt: Type.String(),
      },
      closed,
    ),
    installedAt: Type.String(),
    updatedAt: Type.String(),
    manifestHash: Type.String(),
    quarantine: Type.Array(GjcQuarantineSchema),
    signer: Type.Optional(
      Type.Object(
        { fingerprint: Type.String(), keyType: Type.Optional(Type.String()), identity: Type.Optional(Type.String()) },
        closed,
      ),
    ),
  },
  closed,
);

/**
 * `registryStamp`: the registry.json these summaries were made from (src/store/derived-index.ts);
 * `mac`: this user's MAC over scope, stamp and bundles (src/store/state-mac.ts), so an index we
 * did not write is never used.
 */
export const ListIndexSchema = Type.Object(
  { scope: ScopeSchema, registryStamp: Type.String(), bundles: Type.Array(BundleSummarySchema), mac: Type.String() },
  closed,
);

/** src/c2store/files-stamp.ts: the record's stamp and each file's stat stamp by path. */
export const FilesStampSchema = Type.Object(
  { record: Type.String(), files: Type.Record(Type.String(), Type.String()) },
  closed,
);
