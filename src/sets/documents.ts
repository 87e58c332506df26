/**
 * The `--json` documents of the plugin-set verbs (lock, sync, cache list/verify/prune, outdated,
 * history, rollback) as closed TypeBox schemas, in the store's vocabulary (its family and scope
 * schemas). docs/json/<verb>.schema.json is generated from these (`bun scripts/gen-sets-schemas.ts`)
 * and the set tests validate the documents the CLI prints against them. Only the generator and
 * the tests load this module (TypeBox is never loaded by the verbs for their output).
 * `upgrade --all` is documented with the store's upgrade document.
 */
import Type from "typebox";
import { closed, codeField, opt, schemaField, str, strs } from "../core/schema-kit.ts";
import { errorDocument, FamilySchema, ScopeSchema } from "../store/documents.ts";
import { INTEGRITY_PATTERN } from "../store/integrity.ts";
import { LockEntrySchema } from "../store/plugins-lock-schema.ts";
import { FILE_PROBLEM_KINDS } from "../store/verify.ts";

const int = Type.Integer({ minimum: 0 });
const integrity = Type.String({ pattern: INTEGRITY_PATTERN });
/** src/core/reason.ts: a code gjc explain knows and a message (no prose-only fields). */
export const SetReasonSchema = Type.Object({ code: codeField, message: str }, closed);
const reasons = Type.Array(SetReasonSchema);

const DifferenceSchema = Type.Object(
  {
    name: str,
    family: FamilySchema,
    kind: Type.Enum(["missing", "extra", "changed", "drifted"]),
    fields: opt(strs),
    files: opt(Type.Array(Type.Object({ kind: Type.Enum([...FILE_PROBLEM_KINDS]), path: str }, closed))),
  },
  closed,
);

export const LockDocumentSchema = Type.Union([
  Type.Object(
    {
      schema: schemaField("lock"),
      ok: Type.Literal(true),
      scope: ScopeSchema,
      path: str,
      bundles: Type.Array(LockEntrySchema),
      changed: Type.Boolean(),
    },
    closed,
  ),
  Type.Object(
    {
      schema: schemaField("lock"),
      scope: ScopeSchema,
      path: str,
      ok: Type.Boolean(),
      differences: Type.Array(DifferenceSchema),
    },
    closed,
  ),
  Type.Object(
    {
      schema: schemaField("lock"),
      ok: Type.Literal(true),
      scope: ScopeSchema,
      path: str,
      sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
      bytes: int,
      bundles: int,
      files: int,
    },
    closed,
  ),
]);

const SyncItemSchema = Type.Object(
  {
    name: str,
    family: FamilySchema,
    action: Type.Enum([
      "unchanged",
      "choices",
      "install",
      "repair",
      "replace",
      "remove",
      "extra",
      "policy",
      "unsettled",
    ]),
    from: opt(Type.Enum(["set", "cache", "source"])),
    version: opt(str),
    integrity: opt(integrity),
    reasons,
    needsTrust: opt(Type.Boolean()),
    /** Sandbox grants: applied as the lock says, or more than is recorded and not confirmed with --grant. */
    grants: opt(Type.Enum(["applied", "needs-confirmation"])),
  },
  closed,
);

export const SyncDocumentSchema = Type.Object(
  {
    schema: schemaField("sync"),
    scope: ScopeSchema,
    lockPath: str,
    dryRun: Type.Boolean(),
    ok: Type.Boolean(),
    items: Type.Array(SyncItemSchema),
    needsTrust: strs,
    needsGrants: opt(strs),
  },
  closed,
);

export const CacheListDocumentSchema = Type.Object(
  {
    schema: schemaField("cache-list"),
    ok: Type.Literal(true),
    root: str,
    entries: Type.Array(
      Type.Object({ integrity, name: str, family: FamilySchema, version: str, files: int, bytes: int }, closed),
    ),
    broken: Type.Array(integrity),
  },
  closed,
);

export const CacheVerifyDocumentSchema = Type.Object(
  {
    schema: schemaField("cache-verify"),
    root: str,
    ok: Type.Boolean(),
    checked: int,
    damaged: Type.Array(Type.Object({ integrity, name: opt(str), reasons }, closed)),
  },
  closed,
);

export const CachePruneDocumentSchema = Type.Object(
  {
    schema: schemaField("cache-prune"),
    ok: Type.Literal(true),
    root: str,
    kept: int,
    removed: Type.Array(Type.Object({ integrity, name: opt(str) }, closed)),
    dryRun: Type.Boolean(),
  },
  closed,
);

export const OutdatedDocumentSchema = Type.Object(
  {
    schema: schemaField("outdated"),
    ok: Type.Literal(true),
    rows: Type.Array(
      Type.Object(
        {
          name: str,
          family: FamilySchema,
          scope: ScopeSchema,
          source: str,
          installed: Type.Object({ version: str, commit: opt(str), ref: opt(str) }, closed),
          latest: opt(Type.Object({ commit: opt(str), tag: opt(str), version: opt(str) }, closed)),
          status: Type.Enum(["current", "outdated", "not-checkable", "unreachable"]),
          reasons,
        },
        closed,
      ),
    ),
    outdated: int,
  },
  closed,
);

export const HistoryDocumentSchema = Type.Object(
  {
    schema: schemaField("history"),
    ok: Type.Literal(true),
    name: opt(str),
    scope: ScopeSchema,
    generations: Type.Array(
      Type.Object(
        { generation: Type.Integer({ minimum: 1 }), at: str, command: str, bundles: Type.Array(LockEntrySchema) },
        closed,
      ),
    ),
  },
  closed,
);

export const RollbackDocumentSchema = Type.Object(
  {
    schema: schemaField("rollback"),
    ok: Type.Literal(true),
    scope: ScopeSchema,
    name: str,
    family: FamilySchema,
    generation: Type.Integer({ minimum: 1 }),
    status: Type.Enum(["restored", "removed", "unchanged"]),
    from: opt(Type.Object({ version: str, integrity }, closed)),
    to: opt(Type.Object({ version: str, integrity, enabled: Type.Boolean() }, closed)),
    trustNotRaised: opt(Type.Boolean()),
  },
  closed,
);

/** Release logs (src/sets/release-log.ts): a tree head as origin, size and base64 root. */
const TreeHeadSchema = Type.Object({ origin: str, size: int, root: str }, closed);
const ReleaseSchema = Type.Object({ index: int, name: str, version: str, digest: integrity, signer: opt(str) }, closed);

export const LogInitDocumentSchema = Type.Object(
  {
    schema: schemaField("log-init"),
    ok: Type.Literal(true),
    dir: str,
    origin: str,
    key: str,
    keyFile: str,
    keyCreated: Type.Boolean(),
    checkpoint: TreeHeadSchema,
  },
  closed,
);
export const LogAppendDocumentSchema = Type.Object(
  {
    schema: schemaField("log-append"),
    ok: Type.Literal(true),
    dir: str,
    origin: str,
    status: Type.Enum(["appended", "unchanged"]),
    release: ReleaseSchema,
    checkpoint: TreeHeadSchema,
  },
  closed,
);
export const LogVerifyDocumentSchema = Type.Object(
  {
    schema: schemaField("log-verify"),
    ok: Type.Literal(true),
    dir: str,
    origin: str,
    key: str,
    checkpoint: TreeHeadSchema,
    releases: int,
    remembered: opt(TreeHeadSchema),
    against: opt(TreeHeadSchema),
  },
  closed,
);
export const LogMonitorDocumentSchema = Type.Object(
  {
    schema: schemaField("log-monitor"),
    ok: Type.Boolean(),
    dir: str,
    origin: str,
    checkpoint: TreeHeadSchema,
    keys: strs,
    releases: Type.Array(ReleaseSchema),
  },
  closed,
);

/** Every document above or its failure form (the store's error document), by its `schema` value. */
export const SET_DOCUMENTS = {
  "gjc/lock@1": Type.Union([...LockDocumentSchema.anyOf, errorDocument("lock")]),
  "gjc/sync@1": Type.Union([SyncDocumentSchema, errorDocument("sync")]),
  "gjc/cache-list@1": Type.Union([CacheListDocumentSchema, errorDocument("cache-list")]),
  "gjc/cache-verify@1": Type.Union([CacheVerifyDocumentSchema, errorDocument("cache-verify")]),
  "gjc/cache-prune@1": Type.Union([CachePruneDocumentSchema, errorDocument("cache-prune")]),
  "gjc/outdated@1": Type.Union([OutdatedDocumentSchema, errorDocument("outdated")]),
  "gjc/history@1": Type.Union([HistoryDocumentSchema, errorDocument("history")]),
  "gjc/rollback@1": Type.Union([RollbackDocumentSchema, errorDocument("rollback")]),
  "gjc/log-init@1": Type.Union([LogInitDocumentSchema, errorDocument("log-init")]),
  "gjc/log-append@1": Type.Union([LogAppendDocumentSchema, errorDocument("log-append")]),
  "gjc/log-verify@1": Type.Union([LogVerifyDocumentSchema, errorDocument("log-verify")]),
  "gjc/log-monitor@1": Type.Union([LogMonitorDocumentSchema, errorDocument("log-monitor")]),
} as const;
