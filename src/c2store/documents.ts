/**
 * `gjc plugin trust/untrust --json` (gjc/trust@1, gjc/untrust@1) and `gjc marketplace list
 * --json` (gjc/marketplace-list@1) as closed TypeBox schemas; docs/json/*.schema.json are
 * generated from them (`bun scripts/gen-verb-schemas.ts`) and every e2e document is checked
 * against them. The capability diff's items are the trusted capabilities (src/audit), kept open.
 */
import Type from "typebox";
import { CommandSurfaceSchema, DiagnosticSchema, errorDocument } from "../store/documents.ts";
import { closed, nullable, opt, str, strs } from "../core/schema-kit.ts";
import { PlanRequest } from "./plan-schema.ts";

const DiffSectionSchema = Type.Object(
  {
    added: Type.Array(Type.Object({})),
    removed: Type.Array(Type.Object({})),
    changed: Type.Array(Type.Object({ id: str, fields: strs })),
  },
  closed,
);
const TrustDiffSchema = Type.Object(
  {
    empty: Type.Boolean(),
    processes: DiffSectionSchema,
    endpoints: DiffSectionSchema,
    env: DiffSectionSchema,
    hostCommands: DiffSectionSchema,
    codeChanged: Type.Boolean(),
  },
  closed,
);

const flagDocument = (verb: "trust" | "untrust") =>
  Type.Object(
    {
      schema: Type.Literal(`gjc/${verb}@1`),
      ok: Type.Literal(true),
      family: Type.Literal("c2"),
      id: str,
      name: str,
      field: Type.Literal("trusted"),
      value: Type.Literal(verb === "trust"),
      changed: Type.Boolean(),
      enabled: Type.Boolean(),
      trusted: Type.Boolean(),
      passEnv: strs,
      notices: Type.Array(Type.Object({ code: str, message: str }, closed)),
      capabilityDiff: opt(TrustDiffSchema),
    },
    closed,
  );

const CatalogEntrySchema = Type.Object(
  {
    name: str,
    version: str,
    description: nullable(str),
    source: str,
    installationPolicy: str,
    installable: Type.Boolean(),
    reasons: Type.Array(
      Type.Object({ code: Type.Enum(["not_available", "unsupported_source"]), message: str }, closed),
    ),
    installed: nullable(
      Type.Object(
        { id: str, version: str, enabled: Type.Boolean(), trusted: Type.Boolean(), runsProcesses: Type.Boolean() },
        closed,
      ),
    ),
  },
  closed,
);
export const MarketplaceListDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/marketplace-list@1"),
    ok: Type.Literal(true),
    file: str,
    name: str,
    displayName: nullable(str),
    entries: Type.Array(CatalogEntrySchema),
    diagnostics: Type.Array(DiagnosticSchema),
  },
  closed,
);

// The policy verbs print gjc's own vocabulary; `gjc host --stdio` maps the same results to the
// C2 wire names at its boundary (src/c2host/wire-names.ts).
const State = Type.Enum(["enabled", "disabled"]);
const ScopeRefSchema = Type.Union([
  Type.Object({ kind: Type.Literal("user") }, closed),
  Type.Object({ kind: Type.Literal("project"), projectPath: str }, closed),
]);
const revision = Type.Integer({ minimum: 0 });
// config is the bundle runtime's own JSON (1.2.0 runtimes declare no schema).
const EffectiveSchema = Type.Object(
  { state: State, config: Type.Unknown(), components: Type.Record(str, State) },
  closed,
);
const RecoverySchema = Type.Union([
  Type.Object({ kind: Type.Literal("normal") }, closed),
  Type.Object({ kind: Type.Enum(["restored-last-good", "safe-mode"]), error: str }, closed),
]);
// The stored plan's request (plan-schema.ts) as the verbs print it.
const PlanRequestSchema = Type.Object(
  {
    plugin: PlanRequest.properties.plugin,
    installedId: PlanRequest.properties.installed_id,
    project: PlanRequest.properties.project,
    state: PlanRequest.properties.state,
    component: PlanRequest.properties.component,
    config: PlanRequest.properties.config,
  },
  closed,
);

export const PolicyPlanDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/policy-plan@1"),
    ok: Type.Literal(true),
    token: str,
    expiresAt: str,
    configRevision: revision,
    graphRevision: str,
    request: PlanRequestSchema,
    scope: ScopeRefSchema,
    noop: Type.Boolean(),
    before: EffectiveSchema,
    after: EffectiveSchema,
    affected: strs,
    activeResources: Type.Array(
      Type.Object(
        { plugin: str, kind: Type.Enum(["plugin-scope", "service", "process"]), id: str, label: str },
        closed,
      ),
    ),
    requiresConfirmation: Type.Boolean(),
    settles: Type.Boolean(),
    missingServices: strs,
    trustBlock: nullable(Type.Enum(["untrusted", "needs-retrust"])),
    warnings: Type.Array(
      Type.Object(
        { code: Type.Enum(["untrusted", "trust_outdated", "missing_service", "plugin_disabled"]), message: str },
        closed,
      ),
    ),
  },
  closed,
);
export const PolicyApplyDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/policy-apply@1"),
    ok: Type.Literal(true),
    configRevision: revision,
    graphRevision: str,
    affected: strs,
    changed: Type.Boolean(),
    effective: EffectiveSchema,
    scope: ScopeRefSchema,
  },
  closed,
);
export const PolicyResetDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/policy-reset@1"),
    ok: Type.Literal(true),
    plugin: str,
    scope: ScopeRefSchema,
    configRevision: revision,
    changed: Type.Boolean(),
    recoveryBefore: RecoverySchema,
    evidence: opt(str),
  },
  closed,
);

const PolicyCatalogEntrySchema = Type.Object(
  {
    id: str,
    installedId: str,
    name: str,
    version: str,
    metadata: Type.Object(
      {
        origin: Type.Literal("third-party"),
        role: Type.Literal("extension"),
        category: Type.Enum(["connector", "ui", "runtime", "language-server", "content"]),
        scopeSupport: strs,
        essential: Type.Literal(false),
        defaultEnabled: Type.Literal(true),
      },
      closed,
    ),
    dependencies: Type.Object({ required: strs, optional: strs }, closed),
    missingServices: strs,
    hasRuntime: Type.Boolean(),
    languageServers: Type.Integer({ minimum: 0 }),
    bundleEnabled: Type.Boolean(),
    trusted: Type.Boolean(),
    trustState: Type.Enum(["untrusted", "trusted", "needs-retrust"]),
    state: Type.Enum(["enabled", "disabled", "inherit"]),
    config: Type.Unknown(),
    components: Type.Record(str, State),
    effective: Type.Object(
      {
        state: State,
        source: Type.Enum(["default", "user", "project", "bundle-disabled", "safe-mode"]),
        config: Type.Unknown(),
        components: Type.Record(str, State),
      },
      closed,
    ),
    effectiveState: Type.Object(
      {
        status: Type.Enum(["enabled", "disabled", "untrusted", "pending"]),
        reason: nullable(
          Type.Enum(["disabled", "bundle-disabled", "safe-mode", "untrusted", "needs-retrust", "missing-dependencies"]),
        ),
      },
      closed,
    ),
    commands: Type.Array(CommandSurfaceSchema),
  },
  closed,
);
export const PolicyCatalogDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/policy-catalog@1"),
    ok: Type.Literal(true),
    scope: ScopeRefSchema,
    configRevision: revision,
    graphRevision: str,
    recovery: RecoverySchema,
    plugins: Type.Array(PolicyCatalogEntrySchema),
    broken: Type.Array(Type.Object({ id: str, problem: str }, closed)),
    // Bundles the C2 app installed in the shared data directory: listed, never governed by gjc.
    foreign: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: str,
            name: str,
            version: str,
            writer: Type.Enum(["c2-app", "unknown"]),
            enabled: Type.Boolean(),
            trusted: Type.Boolean(),
          },
          closed,
        ),
      ),
    ),
  },
  closed,
);

export const C2STORE_DOCUMENTS = {
  "gjc/policy-catalog@1": {
    file: "policy-catalog.schema.json",
    title: "gjc plugin policy catalog --json",
    schema: Type.Union([PolicyCatalogDocumentSchema, errorDocument("policy-catalog")]),
  },
  "gjc/policy-plan@1": {
    file: "policy-plan-output.schema.json",
    title: "gjc plugin policy plan --json",
    schema: Type.Union([PolicyPlanDocumentSchema, errorDocument("policy-plan")]),
  },
  "gjc/policy-apply@1": {
    file: "policy-apply.schema.json",
    title: "gjc plugin policy apply --json",
    schema: Type.Union([PolicyApplyDocumentSchema, errorDocument("policy-apply")]),
  },
  "gjc/policy-reset@1": {
    file: "policy-reset.schema.json",
    title: "gjc plugin policy reset --json",
    schema: Type.Union([PolicyResetDocumentSchema, errorDocument("policy-reset")]),
  },
  "gjc/trust@1": {
    file: "trust.schema.json",
    title: "gjc plugin trust --json",
    schema: Type.Union([flagDocument("trust"), errorDocument("trust")]),
  },
  "gjc/untrust@1": {
    file: "untrust.schema.json",
    title: "gjc plugin untrust --json",
    schema: Type.Union([flagDocument("untrust"), errorDocument("untrust")]),
  },
  "gjc/marketplace-list@1": {
    file: "marketplace-list.schema.json",
    title: "gjc marketplace list --json",
    schema: Type.Union([MarketplaceListDocumentSchema, errorDocument("marketplace-list")]),
  },
};
