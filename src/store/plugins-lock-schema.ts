/**
 * The lock file format (`plugins.lock.json`, lockfileVersion 1) as closed TypeBox schemas. Its
 * check is generated into src/sets/disk-schemas.generated.ts and the JSON Schema
 * docs/json/plugins-lock.schema.json with it (`bun scripts/gen-disk-schemas.ts`), so reading a
 * valid lock never loads TypeBox.
 */
import Type, { type Static } from "typebox";
import { closed, FamilySchema, ScopeSchema } from "../core/schema-kit.ts";
import { INTEGRITY_PATTERN } from "./integrity.ts";

const SHA1_OR_256 = "^(?:[0-9a-f]{40}|[0-9a-f]{64})$";

export const LockSourceSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal("path"), Type.Literal("tarball"), Type.Literal("git"), Type.Literal("github")]),
    /** Local directory or archive: relative (`./…`, to the project) when inside the project. */
    path: Type.Optional(Type.String({ minLength: 1 })),
    /** git URL or https archive URL, credentials removed. */
    url: Type.Optional(Type.String({ minLength: 1 })),
    /** GitHub `owner/repo`. */
    repository: Type.Optional(Type.String({ minLength: 1 })),
    /** The ref as the user gave it (branch, tag, or a full commit). */
    ref: Type.Optional(Type.String({ minLength: 1 })),
    subpath: Type.Optional(Type.String({ minLength: 1 })),
    /**
     * C2 bundles installed from a catalog entry: the catalog file (relative inside the
     * project), its display name and the entry name; sync installs the entry under the same
     * link (and installed id) on a fresh machine.
     */
    catalog: Type.Optional(
      Type.Object({ path: Type.String(), name: Type.Optional(Type.String()), entry: Type.String() }, closed),
    ),
  },
  closed,
);

export const LockPinSchema = Type.Object(
  {
    /** The git commit the source resolved to. */
    commit: Type.Optional(Type.String({ pattern: SHA1_OR_256 })),
    /** SHA-256 of the archive bytes. */
    sha256: Type.Optional(Type.String({ pattern: "^[0-9a-f]{64}$" })),
  },
  closed,
);

/**
 * Sandbox grants as a set carries them (src/sets/grants.ts): paths `~/…` or absolute in a user
 * lock, `./…` inside the project in a project lock; net as `host[:port]`. Empty lists are left out.
 */
export const LockGrantSetSchema = Type.Object(
  {
    read: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    write: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    net: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    project: Type.Optional(Type.Union([Type.Literal("read"), Type.Literal("write")])),
  },
  closed,
);

export const LockGrantsSchema = Type.Object(
  {
    /** For every process of the bundle. */
    bundle: Type.Optional(LockGrantSetSchema),
    /** Keyed `server:<id>`, `runtime`, `lsp:<id>`. */
    processes: Type.Optional(
      Type.Record(Type.String({ pattern: "^(?:runtime|server:.+|lsp:.+)$" }), LockGrantSetSchema),
    ),
  },
  closed,
);

/**
 * A bundle from a source with a release log: the proof that its release is in the log, at a
 * checkpoint signed by the log's note key (src/store/release-log-check.ts), so a sync with no
 * log at hand still verifies it.
 */
export const LockLogSchema = Type.Object(
  {
    origin: Type.String({ minLength: 1 }),
    /** The log's note verifier key. */
    key: Type.String({ minLength: 1 }),
    /** The signed checkpoint note. */
    checkpoint: Type.String({ minLength: 1 }),
    index: Type.Integer({ minimum: 0 }),
    /** The release line that is the leaf: name, version, digest, signer. */
    leaf: Type.String({ minLength: 1 }),
    /** The RFC 6962 audit path, base64 hashes. */
    proof: Type.Array(Type.String({ pattern: "^[A-Za-z0-9+/]{43}=$" })),
  },
  closed,
);

export const LockEntrySchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    family: FamilySchema,
    version: Type.String({ minLength: 1 }),
    source: LockSourceSchema,
    pin: LockPinSchema,
    integrity: Type.String({ pattern: INTEGRITY_PATTERN }),
    files: Type.Integer({ minimum: 1 }),
    enabled: Type.Boolean(),
    /** GJC surface ids the user turned off. */
    disabledSurfaces: Type.Array(Type.String()),
    /** From a source with a release log: the proof that this release is in it. */
    log: Type.Optional(LockLogSchema),
    /** C2: whether the set expects the bundle trusted (sync reports it, never grants it unasked). */
    c2: Type.Optional(Type.Object({ trusted: Type.Boolean() }, closed)),
    /** The sandbox grants the set expects (sync asks before it raises any: --grant <name>). */
    grants: Type.Optional(LockGrantsSchema),
    /** The fingerprint of the key that signed this content (SHA256:…); sync --frozen refuses another. */
    signer: Type.Optional(Type.String({ pattern: "^SHA256:[A-Za-z0-9+/]{43}$" })),
  },
  closed,
);

const PolicyStateSchema = Type.Union([Type.Literal("enabled"), Type.Literal("disabled")]);

/**
 * Project locks: the project's C2 policy for a C2 bundle of the set (state and components;
 * never its config). The bundle itself is an entry of `bundles` (C2 bundles with explicit
 * project policy are the project's C2 set); sync --project installs it user-wide, then applies this.
 */
export const LockPolicySchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    state: Type.Union([Type.Literal("enabled"), Type.Literal("disabled"), Type.Literal("inherit")]),
    components: Type.Record(Type.String(), PolicyStateSchema),
  },
  closed,
);

export const LockFileSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    lockfileVersion: Type.Literal(1),
    scope: ScopeSchema,
    bundles: Type.Array(LockEntrySchema),
    /** Project locks only, when the project has explicit C2 policy. */
    c2Policy: Type.Optional(Type.Array(LockPolicySchema)),
    /** Refuse unsigned bundles when syncing this set (unsigned_bundle). */
    requireSigned: Type.Optional(Type.Boolean()),
  },
  // Unknown top-level keys are kept when gjc rewrites a lock (a newer tool's additions survive).
  {
    additionalProperties: true,
    title: "gjc plugins.lock.json (lockfileVersion 1)",
    description:
      "A team's plugin set: one entry per bundle with its source, resolved pin, content integrity and the user's choices. See README \"Team plugin sets\".",
  },
);

export type LockSource = Static<typeof LockSourceSchema>;
export type LockPin = Static<typeof LockPinSchema>;
export type LockEntry = Static<typeof LockEntrySchema>;
export type LockGrants = Static<typeof LockGrantsSchema>;
export type LockGrantSet = Static<typeof LockGrantSetSchema>;
export type LockLog = Static<typeof LockLogSchema>;
export type LockPolicy = Static<typeof LockPolicySchema>;
export type LockFile = Static<typeof LockFileSchema>;
