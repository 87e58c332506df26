/**
 * Closed TypeBox schemas for a C2 catalog (marketplace.json, standardVersion 1.0.0). The seed
 * says catalog, entry and source objects are closed but does not list their keys; these
 * sets are the keys the reference's own catalog and consumers use (c2-notes §5.1):
 *   catalog  standardVersion, name, displayName, description, plugins
 *   entry    name, displayName, version, description, category, installationPolicy,
 *            authenticationPolicy, defaultEnabled, source
 *   local    kind, path                       github  kind, repository, ref, sha, path
 *   git      kind, url, path, ref, sha        npm     kind, package, version, registry
 *   archive  kind, url, sha256
 */
import Type from "typebox";
import { closed } from "../../core/schema-kit.ts";
import { NAME_PATTERN, SEMVER_PATTERN } from "./rules.ts";

export const CATALOG_STANDARD_VERSION = "1.0.0";
export const SOURCE_KINDS = ["local", "github", "git", "npm", "archive"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
export const INSTALLATION_POLICIES = ["AVAILABLE", "NOT_AVAILABLE", "INSTALLED_BY_DEFAULT"] as const;
export const AUTHENTICATION_POLICIES = ["ON_INSTALL", "ON_FIRST_USE"] as const;

/** `./dir` or `.`: relative to the catalog file's directory. */
export const LOCAL_PATH_PATTERN = "^\\.(?:/.*)?$";
/** GitHub owner/repo as GitHub spells them. */
export const REPOSITORY_PATTERN = "^(?!\\.\\.?/)[A-Za-z0-9_.-]+/(?!\\.\\.?$)[A-Za-z0-9_.-]+$";
/** A branch or tag name git would accept, without the forms that read as options or ranges. */
export const REF_PATTERN = "^(?!-)(?!.*\\.\\.)(?!.*@\\{)(?!.*//)(?!.*/$)(?!.*\\.lock$)[A-Za-z0-9._/+-]+$";
export const SHA1_PATTERN = "^[0-9a-f]{40}$";
export const SHA256_PATTERN = "^[0-9a-f]{64}$";
/** npm package names, optionally scoped. */
export const NPM_PACKAGE_PATTERN = "^(?:@[a-z0-9-~][a-z0-9-._~]*/)?[a-z0-9-~][a-z0-9-._~]*$";
/** A bundle-relative subdirectory inside a repository. */
export const SUBPATH_PATTERN = "^(?!/)(?!.*(?:^|/)\\.\\.?(?:/|$))(?!.*//)[^\\\\:]+$";

const text = Type.Optional(Type.String());

export const LocalSourceSchema = Type.Object(
  { kind: Type.Literal("local"), path: Type.String({ pattern: LOCAL_PATH_PATTERN }) },
  closed,
);
export const GithubSourceSchema = Type.Object(
  {
    kind: Type.Literal("github"),
    repository: Type.String({ pattern: REPOSITORY_PATTERN }),
    ref: Type.Optional(Type.String({ pattern: REF_PATTERN })),
    sha: Type.Optional(Type.String({ pattern: SHA1_PATTERN })),
    path: Type.Optional(Type.String({ pattern: SUBPATH_PATTERN })),
  },
  closed,
);
export const GitSourceSchema = Type.Object(
  {
    kind: Type.Literal("git"),
    url: Type.String({ minLength: 1 }),
    path: Type.Optional(Type.String({ pattern: SUBPATH_PATTERN })),
    ref: Type.Optional(Type.String({ pattern: REF_PATTERN })),
    sha: Type.Optional(Type.String({ pattern: SHA1_PATTERN })),
  },
  closed,
);
export const NpmSourceSchema = Type.Object(
  {
    kind: Type.Literal("npm"),
    package: Type.String({ pattern: NPM_PACKAGE_PATTERN, maxLength: 214 }),
    version: Type.Optional(Type.String({ minLength: 1 })),
    registry: Type.Optional(Type.String({ minLength: 1 })),
  },
  closed,
);
export const ArchiveSourceSchema = Type.Object(
  {
    kind: Type.Literal("archive"),
    url: Type.String({ minLength: 1 }),
    sha256: Type.Optional(Type.String({ pattern: SHA256_PATTERN })),
  },
  closed,
);

export const SOURCE_SCHEMAS = {
  local: LocalSourceSchema,
  github: GithubSourceSchema,
  git: GitSourceSchema,
  npm: NpmSourceSchema,
  archive: ArchiveSourceSchema,
} as const;

export const EntrySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, pattern: NAME_PATTERN }),
    displayName: text,
    version: Type.String({ pattern: SEMVER_PATTERN }),
    description: text,
    category: text,
    installationPolicy: Type.Optional(Type.Enum([...INSTALLATION_POLICIES])),
    authenticationPolicy: Type.Optional(Type.Enum([...AUTHENTICATION_POLICIES])),
    defaultEnabled: Type.Optional(Type.Boolean()),
    // Checked against the schema of its own kind (no fall-through between shapes).
    source: Type.Object({}),
  },
  closed,
);

export const CatalogSchema = Type.Object(
  {
    standardVersion: Type.String(),
    name: Type.String({ minLength: 1, maxLength: 64, pattern: NAME_PATTERN }),
    displayName: text,
    description: text,
    plugins: Type.Array(Type.Unknown()),
  },
  closed,
);
