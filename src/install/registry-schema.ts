/**
 * The closed TypeBox schema of a scope's `registry.json`: the one definition of its shape,
 * counts and sizes; registry-types.ts derives the TypeScript types from it. Rules a schema cannot say live in registry.ts:
 * the entry scope equals the file's, `dir` belongs to `name`, every copied path passes the
 * path judge, no path twice, the manifest first, the byte total, unique names, the signature.
 *
 * Start-up: src/install/disk-schemas.generated.ts holds this schema as plain JSON
 * (scripts/gen-disk-schemas.ts), so a valid registry never loads TypeBox.
 */
import Type from "typebox";
import { closed, ScopeSchema } from "../core/schema-kit.ts";
import { GJC_LIMITS } from "../bundle/limits.ts";
import { GjcQuarantineSchema } from "../store/documents.ts";
import { CONTENT_DIR } from "../families/gjc/layout.ts";

const SHA256 = "^[0-9a-f]{64}$";
export const ScopeName = ScopeSchema;

/** The on-disk spelling of the store's installed-file record (kept as written). */
export const CopiedFile = Type.Object(
  {
    relativePath: Type.String(),
    sha256: Type.String({ pattern: SHA256 }),
    bytes: Type.Integer({ minimum: 0, maximum: GJC_LIMITS.maxFileBytes }),
    // Permission bits as installed (`mode & 0o777`).
    mode: Type.Integer({ minimum: 0, maximum: 0o777 }),
  },
  closed,
);

/**
 * Where the bundle came from, without credentials (src/sources SourceRecord) and when it was
 * fetched. Open: the sources layer records what it resolved. The kind is one of the four the
 * sources layer writes (upgrade re-resolves the source by it), and every writer since registry
 * v1 has set `resolvedAt`, as the upstream format requires.
 */
export const Source = Type.Object({
  kind: Type.Enum(["path", "tarball", "git", "github"]),
  uri: Type.Optional(Type.String()),
  repository: Type.Optional(Type.String()),
  ref: Type.Optional(Type.String()),
  // The git commit checked out (git/github).
  sha: Type.Optional(Type.String()),
  // SHA-256 of the archive bytes (tarballs).
  sha256: Type.Optional(Type.String()),
  subpath: Type.Optional(Type.String()),
  resolvedAt: Type.String(),
});

/** Open: each surface keeps what the compiler described (name, path, sha256 …), with its stable id as `extensionId`. */
export const Surface = Type.Object({ extensionId: Type.String(), kind: Type.String() });
const SurfaceList = Type.Array(Surface);

/** Surfaces grouped as in notes §4.2. */
export const Surfaces = Type.Object(
  {
    subskills: SurfaceList,
    tools: SurfaceList,
    hooks: SurfaceList,
    mcps: SurfaceList,
    systemAppendices: SurfaceList,
    agentAppendices: SurfaceList,
  },
  closed,
);

/**
 * The key that signed the installed content (src/signing/check.ts), kept where only gjc writes
 * (this MAC-signed registry): a later content signed by another key is refused (signer_changed).
 * `identity` only when the key was a trusted publisher's at install time.
 */
export const Signer = Type.Object(
  {
    fingerprint: Type.String({ pattern: "^SHA256:[A-Za-z0-9+/]{43}$" }),
    keyType: Type.Optional(Type.String()),
    identity: Type.Optional(Type.String()),
  },
  closed,
);

/** `surfaceId` is `plugin:<name>` for the whole bundle, or one surface id. */
export const Quarantine = GjcQuarantineSchema;

export const Entry = Type.Object(
  {
    name: Type.String({ pattern: "^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$" }),
    version: Type.String(),
    scope: ScopeName,
    enabled: Type.Boolean(),
    // The immutable content directory of this install inside the scope root: `<name>@<id>`.
    dir: Type.String({ pattern: CONTENT_DIR.source }),
    // Only their shape: registry.ts derives both again from the scope root and `dir`.
    pluginRoot: Type.String(),
    manifestPath: Type.String(),
    manifestHash: Type.String({ pattern: SHA256 }),
    source: Source,
    installedAt: Type.String(),
    updatedAt: Type.String(),
    // Manifest first, then the other files in byte order: the uninstall ownership boundary.
    // No install holds more than the GJC budgets allow: an entry claiming more was not written by us.
    copiedFiles: Type.Array(CopiedFile, { minItems: 1, maxItems: GJC_LIMITS.maxFiles }),
    surfaces: Surfaces,
    disabledSurfaceIds: Type.Array(Type.String()),
    quarantine: Type.Optional(Type.Array(Quarantine)),
    signer: Type.Optional(Signer),
  },
  closed,
);

export const RegistrySchema = Type.Object(
  {
    version: Type.Literal(1),
    scope: ScopeName,
    plugins: Type.Array(Entry),
    // Absent in a user scope written before signatures (registry.ts foreignProblem).
    mac: Type.Optional(Type.String()),
  },
  closed,
);
