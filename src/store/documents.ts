/**
 * The `--json` documents of the store verbs (install, upgrade, uninstall, enable, disable,
 * list, inspect, verify, doctor), one vocabulary for both families, as closed TypeBox schemas.
 * The JSON Schema files under docs/json/ are generated from these (`bun scripts/gen-store-schemas.ts`),
 * and the e2e tests validate every document against them. Core modules import only the types
 * (`import type`), so TypeBox is never loaded by the verbs themselves.
 *
 * Rules: camelCase keys; the same fact has the same key and the same spelling of its values in
 * both families; no prose beyond diagnostics' and findings' messages; a fact only one family
 * has sits under `gjc` or `c2` inside the row.
 */
import Type, { type Static } from "typebox";
import {
  closed,
  DiagnosticSchema,
  errorDocument,
  FamilySchema,
  opt,
  schemaField,
  ScopeSchema,
  str,
  strs,
} from "../core/schema-kit.ts";

export { DiagnosticSchema, errorDocument, FamilySchema, ScopeSchema } from "../core/schema-kit.ts";
/** How a source is spelled in every document (C2 records say local/archive on disk; documents say path/tarball). */
export const SourceKindSchema = Type.Union([
  Type.Literal("path"),
  Type.Literal("tarball"),
  Type.Literal("git"),
  Type.Literal("github"),
]);

export const StoredFileSchema = Type.Object(
  {
    path: str,
    sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
    bytes: Type.Integer({ minimum: 0 }),
    mode: Type.Integer({ minimum: 0 }),
  },
  closed,
);

export const SourceSchema = Type.Object(
  {
    kind: SourceKindSchema,
    display: str,
    ref: opt(str),
    /** The git commit installed. */
    sha: opt(str),
    /** SHA-256 of the archive installed. */
    sha256: opt(str),
    subpath: opt(str),
    resolvedAt: opt(str),
  },
  closed,
);

const ComponentStatus = ["ready", "requires-trust", "requires-auth", "unsupported"] as const;
// effectiveStatus: the status after trust and component policy (`disabled` by policy).
const ComponentSchema = Type.Object(
  {
    kind: str,
    name: str,
    path: str,
    status: Type.Enum([...ComponentStatus]),
    effectiveStatus: Type.Enum([...ComponentStatus, "disabled"]),
  },
  closed,
);
// The same facts as a GJC surface quarantine (code, detectedAt); the C2 record keeps them as reason and at.
/** The key that signed an installed bundle (identity only for a trusted publisher's key). */
export const SignerSchema = Type.Object({ fingerprint: str, keyType: opt(str), identity: opt(str) }, closed);
/** What install found about the candidate's signature (src/signing/check.ts). */
export const SignatureSchema = Type.Object(
  { status: Type.Enum(["unsigned", "trusted", "unknown-signer"]), signer: opt(SignerSchema) },
  closed,
);

const C2QuarantineSchema = Type.Object({ code: str, files: strs, detectedAt: str }, closed);
/** A GJC surface set aside by verify (registry.json, its list index and the documents alike). */
export const GjcQuarantineSchema = Type.Object({ surfaceId: str, code: str, message: str, detectedAt: str }, closed);

/**
 * A C2 runtime command as hosts and authors read it: the standard calls `argsSchema`
 * "inspectable API metadata" and commands host-readable, so every document that lists commands
 * carries the same four fields. `argsSchema` is the bundle's JSON Schema verbatim, or null.
 */
import { CommandSurfaceSchema } from "../families/documents.ts";
export { CommandSurfaceSchema };

/** One installed bundle as `list` shows it; `inspect` adds to it. */
export const BundleRowSchema = Type.Object(
  {
    family: FamilySchema,
    name: str,
    version: str,
    scope: ScopeSchema,
    enabled: Type.Boolean(),
    quarantined: Type.Boolean(),
    source: SourceSchema,
    installedAt: str,
    updatedAt: str,
    signer: opt(SignerSchema),
    gjc: opt(
      Type.Object(
        {
          counts: Type.Object(
            {
              surfaces: Type.Integer(),
              enabled: Type.Integer(),
              disabled: Type.Integer(),
              quarantined: Type.Integer(),
            },
            closed,
          ),
          manifestHash: str,
          quarantine: Type.Array(GjcQuarantineSchema),
          /** gjc-agent: read from a registry the GJC agent wrote in its own shape; gjc never changes that scope. */
          writer: opt(Type.Literal("gjc-agent")),
        },
        closed,
      ),
    ),
    c2: opt(
      Type.Object(
        {
          id: str,
          trusted: Type.Boolean(),
          /** untrusted | trusted | needs-retrust (trusted, but an upgrade changed its capabilities). */
          trustState: Type.Enum(["untrusted", "trusted", "needs-retrust"]),
          hasRuntime: Type.Boolean(),
          contributions: Type.Record(Type.String(), Type.Integer()),
          totalContributions: Type.Integer(),
          components: Type.Array(ComponentSchema),
          diagnostics: Type.Object({ errors: Type.Integer(), warnings: Type.Integer() }, closed),
          quarantine: Type.Union([C2QuarantineSchema, Type.Null()]),
          policy: Type.Object(
            {
              state: Type.Enum(["enabled", "disabled"]),
              source: Type.Enum(["default", "user", "project", "bundle-disabled", "safe-mode"]),
            },
            closed,
          ),
          /** Services `runtime.inject` names that this host lacks: the runtime is pending. */
          missingServices: strs,
          /** The runtime commands the bundle declares, with their host-readable metadata. */
          commands: Type.Array(CommandSurfaceSchema),
          /** Its runtime's process failed in a running gjc host (pid), in that realm, with why. */
          runtimeFailures: Type.Array(
            Type.Object({ host: Type.Integer({ minimum: 1 }), realm: str, code: str, message: str }, closed),
          ),
        },
        closed,
      ),
    ),
  },
  closed,
);

/** A store that could not be read: its bundles are not listed (fail closed). */
export const StoreProblemSchema = Type.Object(
  {
    family: FamilySchema,
    scope: ScopeSchema,
    /** The registry file, or the C2 bundle directory whose record is unusable. */
    path: str,
    /** C2: the installed id of the directory. */
    id: opt(str),
    problem: str,
    /** GJC: the scope was not written by gjc for this user (issue #12): shown, never acted on. */
    foreign: opt(Type.Boolean()),
  },
  closed,
);

/**
 * A C2 bundle directory whose record another program wrote (the C2 app, which shares the data
 * directory): what its record says, shown read-only. gjc never changes, runs or deletes it.
 */
export const ForeignBundleSchema = Type.Object(
  {
    family: Type.Literal("c2"),
    scope: Type.Literal("user"),
    /** The directory's name (the app's installed id). */
    id: str,
    /** c2-app: the reference app's record format (schema 3); unknown: another writer's. */
    writer: Type.Enum(["c2-app", "unknown"]),
    schemaVersion: Type.Integer(),
    path: str,
    problem: str,
    name: opt(str),
    version: opt(str),
    description: opt(str),
    /** The app's own source label, e.g. "GitHub · owner/repo". */
    source: opt(str),
    repository: opt(str),
    enabled: opt(Type.Boolean()),
    trusted: opt(Type.Boolean()),
  },
  closed,
);

export const ListDocumentSchema = Type.Object(
  {
    schema: schemaField("list"),
    ok: Type.Boolean(),
    bundles: Type.Array(BundleRowSchema),
    problems: Type.Array(StoreProblemSchema),
    foreign: opt(Type.Array(ForeignBundleSchema)),
  },
  closed,
);

export const InstallStatusSchema = Type.Enum([
  "installed",
  "updated",
  "repaired",
  "unchanged",
  "would-install",
  "would-update",
  "would-repair",
]);

const SurfaceDeltaSchema = Type.Object({ added: strs, removed: strs, kept: strs }, closed);

const installDocument = (verb: string) =>
  Type.Object(
    {
      schema: schemaField(verb),
      ok: Type.Literal(true),
      family: FamilySchema,
      status: InstallStatusSchema,
      name: str,
      version: str,
      previousVersion: opt(str),
      scope: ScopeSchema,
      files: Type.Integer({ minimum: 0 }),
      bytes: Type.Integer({ minimum: 0 }),
      enabled: Type.Boolean(),
      source: SourceSchema,
      warnings: Type.Array(DiagnosticSchema),
      signature: opt(SignatureSchema),
      /** Dry runs over an installed bundle: what the candidate could do that the installed copy cannot (src/audit). */
      capabilityDiff: opt(Type.Object({}, { additionalProperties: true })),
      /** Sources with a release log: the log, the tree size checked, and the release's leaf index (src/store/release-log-hook.ts). */
      releaseLog: opt(
        Type.Object(
          {
            origin: str,
            size: Type.Integer({ minimum: 1 }),
            index: Type.Integer({ minimum: 0 }),
            firstSeen: Type.Boolean(),
          },
          closed,
        ),
      ),
      gjc: opt(Type.Object({ surfaces: SurfaceDeltaSchema }, closed)),
      c2: opt(
        Type.Object(
          {
            id: str,
            bundleDir: str,
            dataDir: str,
            trusted: Type.Boolean(),
            /** The content-source identity the installed id is derived from. */
            identity: str,
            /** The source as it can be typed again. */
            spec: str,
            contributions: Type.Record(Type.String(), Type.Integer()),
            components: Type.Array(
              Type.Object({ kind: str, name: str, path: str, status: Type.Enum([...ComponentStatus]) }, closed),
            ),
            diagnostics: Type.Array(DiagnosticSchema),
          },
          closed,
        ),
      ),
    },
    closed,
  );

export const InstallDocumentSchema = installDocument("install");
export const UpgradeDocumentSchema = installDocument("upgrade");

/** `gjc plugin upgrade --all` (src/sets/upgrade-all.ts): one outcome per installed bundle. */
export const UpgradeAllDocumentSchema = Type.Object(
  {
    schema: schemaField("upgrade"),
    dryRun: Type.Boolean(),
    ok: Type.Boolean(),
    outcomes: Type.Array(
      Type.Object(
        // reasons: why it failed, as src/core/reason.ts says it ({code, message}); empty otherwise.
        {
          name: str,
          family: FamilySchema,
          scope: ScopeSchema,
          outcome: Type.Enum(["upgraded", "unchanged", "failed"]),
          from: opt(str),
          to: opt(str),
          reasons: Type.Array(Type.Object({ code: str, message: str }, closed)),
        },
        closed,
      ),
    ),
    locksUpdated: strs,
  },
  closed,
);

export const UninstallDocumentSchema = Type.Object(
  {
    schema: schemaField("uninstall"),
    ok: Type.Literal(true),
    family: FamilySchema,
    status: Type.Union([Type.Literal("uninstalled"), Type.Literal("would-uninstall")]),
    name: str,
    version: str,
    scope: ScopeSchema,
    /** Bundle-relative paths of the files removed (or that would be). */
    files: strs,
    warnings: Type.Array(DiagnosticSchema),
    // unowned: what the content directory held that the bundle did not install; keptIn: the
    // directory it was kept in (uninstall removes only the files the registry records).
    gjc: opt(Type.Object({ unowned: strs, keptIn: opt(str) }, closed)),
    c2: opt(
      Type.Object(
        { id: str, bundleDir: str, dataDir: str, dataKept: Type.Boolean(), policyForgotten: Type.Boolean() },
        closed,
      ),
    ),
  },
  closed,
);

const enablementDocument = (verb: string) =>
  Type.Object(
    {
      schema: schemaField(verb),
      ok: Type.Literal(true),
      family: FamilySchema,
      name: str,
      scope: ScopeSchema,
      surface: opt(str),
      enabled: Type.Boolean(),
      changed: Type.Boolean(),
      warnings: Type.Array(DiagnosticSchema),
      c2: opt(Type.Object({ id: str, trusted: Type.Boolean() }, closed)),
    },
    closed,
  );
export const EnableDocumentSchema = enablementDocument("enable");
export const DisableDocumentSchema = enablementDocument("disable");

const FileProblemSchema = Type.Object(
  { kind: Type.Enum(["missing", "changed", "extra", "mode", "symlink", "special"]), path: str, message: str },
  closed,
);

export const VerifiedBundleSchema = Type.Object(
  {
    family: FamilySchema,
    name: str,
    version: str,
    scope: ScopeSchema,
    ok: Type.Boolean(),
    checked: Type.Integer({ minimum: 0 }),
    problems: Type.Array(FileProblemSchema),
    quarantined: Type.Boolean(),
    change: Type.Union([Type.Literal("quarantined"), Type.Literal("cleared"), Type.Literal("none")]),
    c2: opt(Type.Object({ id: str }, closed)),
  },
  closed,
);

const RuntimeCheckSchema = Type.Object({}, { additionalProperties: true });

/**
 * What the sandbox had to say while a verb ran its plugin processes (src/process/sandbox/notices.ts):
 * it could not be enforced here, it was switched off, or it refused a connection (with the grant
 * that would allow it in `hint`).
 */
export const SandboxWarningSchema = Type.Object(
  { code: Type.Enum(["sandbox_unavailable", "sandbox_off", "sandbox_denied"]), message: str, hint: str },
  closed,
);
export const sandboxWarningsField = { warnings: opt(Type.Array(SandboxWarningSchema)) };

export const VerifyDocumentSchema = Type.Object(
  {
    schema: schemaField("verify"),
    ok: Type.Boolean(),
    bundles: Type.Array(VerifiedBundleSchema),
    problems: Type.Array(StoreProblemSchema),
    runtime: opt(RuntimeCheckSchema),
    mcp: opt(RuntimeCheckSchema),
    ...sandboxWarningsField,
  },
  closed,
);

/** Sandbox grants (`gjc plugin allow`): what a bundle's processes may touch beyond the default profile. */
export const NetGrantSchema = Type.Object(
  { host: str, port: opt(Type.Integer({ minimum: 1, maximum: 65535 })) },
  closed,
);
export const GrantSetSchema = Type.Object(
  {
    read: strs,
    write: strs,
    net: Type.Array(NetGrantSchema),
    project: Type.Union([Type.Literal("read"), Type.Literal("write"), Type.Null()]),
  },
  closed,
);
export const GrantProcessSchema = Type.Object(
  { kind: Type.Union([Type.Literal("server"), Type.Literal("runtime"), Type.Literal("lsp")]), id: opt(str) },
  closed,
);
export const SandboxProfileSchema = Type.Object({ read: strs, write: strs, net: Type.Array(NetGrantSchema) }, closed);
const GrantedBundleSchema = Type.Object({ name: str, family: FamilySchema, scope: ScopeSchema }, closed);
/** The grants shown by inspect: for every process, and per process. */
export const BundleGrantsSchema = Type.Object(
  {
    /** `foreign`: the grants file was not written by gjc for this user, and nothing in it applies. */
    state: Type.Enum(["absent", "signed", "foreign"]),
    bundle: GrantSetSchema,
    processes: Type.Array(Type.Object({ process: GrantProcessSchema, grants: GrantSetSchema }, closed)),
  },
  closed,
);

export const AllowDocumentSchema = Type.Object(
  {
    schema: schemaField("allow"),
    ok: Type.Literal(true),
    bundle: GrantedBundleSchema,
    process: Type.Union([GrantProcessSchema, Type.Null()]),
    status: Type.Enum(["granted", "unchanged", "reset"]),
    dryRun: Type.Boolean(),
    grants: GrantSetSchema,
    warnings: Type.Array(Type.Object({ code: str, message: str }, closed)),
  },
  closed,
);

export const PermissionsDocumentSchema = Type.Object(
  {
    schema: schemaField("permissions"),
    ok: Type.Literal(true),
    bundle: Type.Object({ ...GrantedBundleSchema.properties, root: str }, closed),
    grantsFile: Type.Object(
      { path: str, state: Type.Enum(["absent", "signed", "foreign"]), problem: Type.Union([str, Type.Null()]) },
      closed,
    ),
    grants: GrantSetSchema,
    processes: Type.Array(
      Type.Object({ process: GrantProcessSchema, grants: GrantSetSchema, profile: SandboxProfileSchema }, closed),
    ),
  },
  closed,
);

export const InspectBundleSchema = Type.Object(
  {
    ...BundleRowSchema.properties,
    /** The installed content directory. */
    root: str,
    description: Type.Union([str, Type.Null()]),
    files: Type.Array(StoredFileSchema),
    bytes: Type.Integer({ minimum: 0 }),
    /** Sandbox grants (gjc plugin allow): for every process, and per process. */
    grants: opt(BundleGrantsSchema),
    gjc: opt(
      Type.Object(
        {
          ...BundleRowSchema.properties.gjc.properties,
          surfaces: Type.Array(
            Type.Object(
              {
                id: str,
                kind: str,
                state: Type.Union([Type.Literal("enabled"), Type.Literal("disabled"), Type.Literal("quarantined")]),
                quarantine: opt(str),
              },
              closed,
            ),
          ),
        },
        closed,
      ),
    ),
    c2: opt(
      Type.Object(
        {
          ...BundleRowSchema.properties.c2.properties,
          dataDir: str,
          identity: str,
          spec: str,
          catalog: Type.Union([Type.Object({ path: str, name: str, entry: str }, closed), Type.Null()]),
          runtime: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
          diagnosticsList: Type.Array(DiagnosticSchema),
          effectivePolicy: Type.Object({}, { additionalProperties: true }),
          /** Host variables the user passed to this plugin by name (`gjc plugin trust --pass-env`). */
          passEnv: strs,
          /** How each language server is launched (args and env verbatim, the variables gjc exports). */
          languageServers: Type.Array(
            Type.Object(
              { server: str, languages: strs, launch: Type.Object({}, { additionalProperties: true }) },
              closed,
            ),
          ),
        },
        closed,
      ),
    ),
  },
  closed,
);

export const InspectDocumentSchema = Type.Union([
  Type.Object(
    { schema: schemaField("inspect"), ok: Type.Literal(true), family: FamilySchema, bundle: InspectBundleSchema },
    closed,
  ),
  // A bundle the C2 app installed: what its record says, read-only.
  Type.Object(
    {
      schema: schemaField("inspect"),
      ok: Type.Literal(true),
      family: Type.Literal("c2"),
      foreign: ForeignBundleSchema,
    },
    closed,
  ),
]);

export const DoctorFindingSchema = Type.Object(
  {
    family: FamilySchema,
    scope: ScopeSchema,
    kind: Type.Enum([
      "stale_lock",
      "busy_lock",
      "unreadable_lock",
      "corrupt_registry",
      "broken_record",
      "corrupt_policy",
      "missing_policy",
      "leftover",
      "orphan_dir",
      "foreign_entry",
      "missing_dir",
      "quarantined",
      "unsafe_scope_path",
      "foreign_scope",
      "transaction_pending",
      "journal_corrupt",
      "foreign_grants",
      "foreign_state",
    ]),
    severity: Type.Union([Type.Literal("error"), Type.Literal("warning"), Type.Literal("info")]),
    path: str,
    message: str,
    /** What `doctor --fix` does about it (or why it does nothing). */
    fix: str,
    fixable: Type.Boolean(),
    fixed: opt(Type.Boolean()),
    /** The command that fixes it, when it is not `doctor --fix` itself. */
    command: opt(str),
  },
  closed,
);

export const DoctorStoreSchema = Type.Object(
  {
    family: FamilySchema,
    scope: ScopeSchema,
    root: str,
    exists: Type.Boolean(),
    /** GJC: the state of registry.json; C2: of the policy file. */
    state: Type.Union([Type.Literal("ok"), Type.Literal("missing"), Type.Literal("corrupt"), Type.Literal("foreign")]),
    bundles: Type.Integer({ minimum: 0 }),
  },
  closed,
);

/** Which mechanisms confine plugin processes on this machine (src/process/sandbox/status.ts). */
export const SandboxStatusSchema = Type.Object(
  {
    mode: Type.Enum(["default", "require", "off"]),
    enforced: Type.Boolean(),
    landlock: Type.Object(
      { active: Type.Boolean(), abi: Type.Integer({ minimum: 0 }), tcp: Type.Boolean(), scoped: Type.Boolean() },
      closed,
    ),
    seccomp: Type.Object({ active: Type.Boolean() }, closed),
    namespaces: Type.Object({ active: Type.Boolean(), unshare: Type.Union([str, Type.Null()]) }, closed),
    network: Type.Enum(["namespace", "landlock-tcp", "none"]),
    missing: strs,
    fallbacks: strs,
  },
  closed,
);

export const DoctorDocumentSchema = Type.Object(
  {
    schema: schemaField("doctor"),
    ok: Type.Boolean(),
    fix: Type.Boolean(),
    stores: Type.Array(DoctorStoreSchema),
    findings: Type.Array(DoctorFindingSchema),
    sandbox: opt(SandboxStatusSchema),
  },
  closed,
);

/** What every verb prints on stdout with --json when it fails (the same error goes to stderr). */
const orError = (verb: string, doc: ReturnType<typeof Type.Object> | ReturnType<typeof Type.Union>) =>
  Type.Union([doc, errorDocument(verb)]);

/** Every document above (or its failure form) by its `schema` value; the generator writes one file per entry. */
export const STORE_DOCUMENTS = {
  "gjc/install@1": orError("install", InstallDocumentSchema),
  "gjc/upgrade@1": Type.Union([UpgradeDocumentSchema, UpgradeAllDocumentSchema, errorDocument("upgrade")]),
  "gjc/uninstall@1": orError("uninstall", UninstallDocumentSchema),
  "gjc/enable@1": orError("enable", EnableDocumentSchema),
  "gjc/disable@1": orError("disable", DisableDocumentSchema),
  "gjc/list@1": orError("list", ListDocumentSchema),
  "gjc/inspect@1": orError("inspect", InspectDocumentSchema),
  "gjc/verify@1": orError("verify", VerifyDocumentSchema),
  "gjc/doctor@1": orError("doctor", DoctorDocumentSchema),
  "gjc/allow@1": orError("allow", AllowDocumentSchema),
  "gjc/permissions@1": orError("permissions", PermissionsDocumentSchema),
};

export type Family = Static<typeof FamilySchema>;
export type { Scope } from "../core/scope.ts";
export type SourceKind = Static<typeof SourceKindSchema>;
export type DocSource = Static<typeof SourceSchema>;
export type BundleRow = Static<typeof BundleRowSchema>;
export type StoreProblem = Static<typeof StoreProblemSchema>;
export type ForeignBundle = Static<typeof ForeignBundleSchema>;
export type ListDocument = Static<typeof ListDocumentSchema>;
export type InstallStatus = Static<typeof InstallStatusSchema>;
export type InstallDocument = Static<typeof InstallDocumentSchema>;
export type InstallResult = Omit<InstallDocument, "schema" | "ok">;
export type UninstallResult = Omit<Static<typeof UninstallDocumentSchema>, "schema" | "ok">;
export type EnablementResult = Omit<Static<typeof EnableDocumentSchema>, "schema" | "ok">;
export type VerifiedBundle = Static<typeof VerifiedBundleSchema>;
export type VerifyResult = Omit<Static<typeof VerifyDocumentSchema>, "schema">;
export type InspectBundle = Static<typeof InspectBundleSchema>;
export type DoctorFinding = Static<typeof DoctorFindingSchema>;
export type DoctorStore = Static<typeof DoctorStoreSchema>;
export type DoctorResult = Omit<Static<typeof DoctorDocumentSchema>, "schema">;
