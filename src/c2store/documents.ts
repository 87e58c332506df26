/**
 * `gjc plugin trust/untrust --json` (gjc/trust@1, gjc/untrust@1) and `gjc marketplace list
 * --json` (gjc/marketplace-list@1) as closed TypeBox schemas; docs/json/*.schema.json are
 * generated from them (`bun scripts/gen-verb-schemas.ts`) and every e2e document is checked
 * against them. The capability diff's items are the trusted capabilities (src/audit), kept open.
 */
import Type from "typebox";
import { DiagnosticSchema, errorDocument } from "../store/documents.ts";

const closed = { additionalProperties: false } as const;
const str = Type.String();
const strs = Type.Array(str);
const opt = Type.Optional;
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const DiffSectionSchema = Type.Object(
  { added: Type.Array(Type.Object({})), removed: Type.Array(Type.Object({})), changed: Type.Array(Type.Object({ id: str, fields: strs })) },
  closed,
);
const TrustDiffSchema = Type.Object(
  { empty: Type.Boolean(), processes: DiffSectionSchema, endpoints: DiffSectionSchema, env: DiffSectionSchema, hostCommands: DiffSectionSchema },
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
    reason: opt(str),
    installed: nullable(Type.Object({ id: str, version: str, enabled: Type.Boolean(), trusted: Type.Boolean(), runsProcesses: Type.Boolean() }, closed)),
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

export const C2STORE_DOCUMENTS = {
  "gjc/trust@1": { file: "trust.schema.json", title: "gjc plugin trust --json", schema: Type.Union([flagDocument("trust"), errorDocument("trust")]) },
  "gjc/untrust@1": { file: "untrust.schema.json", title: "gjc plugin untrust --json", schema: Type.Union([flagDocument("untrust"), errorDocument("untrust")]) },
  "gjc/marketplace-list@1": { file: "marketplace-list.schema.json", title: "gjc marketplace list --json", schema: Type.Union([MarketplaceListDocumentSchema, errorDocument("marketplace-list")]) },
};
