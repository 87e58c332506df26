/**
 * `--json` documents of the signing verbs (gjc plugin digest, gjc plugin sign, gjc signers …)
 * as closed TypeBox schemas; docs/json/ is generated from them (`bun scripts/gen-verb-schemas.ts`).
 */
import Type from "typebox";
import { errorDocument, FamilySchema } from "../core/schema-kit.ts";

const closed = { additionalProperties: false } as const;
const str = Type.String();
const count = Type.Integer({ minimum: 0 });
const nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const integrity = Type.String({ pattern: "^sha256:[0-9a-f]{64}$" });
const fingerprint = Type.String({ pattern: "^SHA256:[A-Za-z0-9+/]{43}$" });
const SignersScope = Type.Enum(["user", "project"]);

const digestFields = { family: FamilySchema, name: str, version: str, files: count, integrity, message: str };

export const DigestDocumentSchema = Type.Object(
  { schema: Type.Literal("gjc/digest@1"), ok: Type.Literal(true), ...digestFields },
  closed,
);

export const SignDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/sign@1"),
    ok: Type.Literal(true),
    ...digestFields,
    file: str,
    namespace: str,
    keyType: str,
    fingerprint,
    allowedSignersLine: Type.Optional(str),
  },
  closed,
);

export const SignerRowSchema = Type.Object(
  {
    scope: SignersScope,
    file: str,
    line: Type.Integer({ minimum: 1 }),
    identity: str,
    keyType: nullable(str),
    fingerprint: Type.Union([fingerprint, Type.Null()]),
    namespaces: nullable(str),
    validAfter: nullable(str),
    validBefore: nullable(str),
    forNames: nullable(str),
    revoked: Type.Boolean(),
    unusable: nullable(str),
  },
  closed,
);

const revokedKey = Type.Object({ fingerprint, keyType: str }, closed);

export const SignersListDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/signers-list@1"),
    ok: Type.Literal(true),
    signers: Type.Array(SignerRowSchema),
    revoked: Type.Array(revokedKey),
    problems: Type.Array(Type.Object({ file: str, line: Type.Integer({ minimum: 1 }), message: str }, closed)),
  },
  closed,
);

export const SignersAddDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/signers-add@1"),
    ok: Type.Literal(true),
    status: Type.Enum(["added", "unchanged"]),
    scope: SignersScope,
    file: str,
    identity: str,
    fingerprint,
    keyType: str,
    forNames: nullable(str),
  },
  closed,
);

export const SignersRemoveDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/signers-remove@1"),
    ok: Type.Literal(true),
    scope: SignersScope,
    file: str,
    removed: Type.Array(Type.Object({ identity: str, fingerprint: Type.Union([fingerprint, Type.Null()]) }, closed)),
  },
  closed,
);

export const SignersRevokeDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/signers-revoke@1"),
    ok: Type.Literal(true),
    file: str,
    revoked: Type.Array(revokedKey),
    removed: count,
  },
  closed,
);

export const SIGNING_DOCUMENTS = {
  "gjc/digest@1": {
    file: "digest.schema.json",
    title: "gjc plugin digest --json",
    schema: Type.Union([DigestDocumentSchema, errorDocument("digest")]),
  },
  "gjc/sign@1": {
    file: "sign.schema.json",
    title: "gjc plugin sign --json",
    schema: Type.Union([SignDocumentSchema, errorDocument("sign")]),
  },
  "gjc/signers-list@1": {
    file: "signers-list.schema.json",
    title: "gjc signers list --json",
    schema: Type.Union([SignersListDocumentSchema, errorDocument("signers-list")]),
  },
  "gjc/signers-add@1": {
    file: "signers-add.schema.json",
    title: "gjc signers add --json",
    schema: Type.Union([SignersAddDocumentSchema, errorDocument("signers-add")]),
  },
  "gjc/signers-remove@1": {
    file: "signers-remove.schema.json",
    title: "gjc signers remove --json",
    schema: Type.Union([SignersRemoveDocumentSchema, errorDocument("signers-remove")]),
  },
  "gjc/signers-revoke@1": {
    file: "signers-revoke.schema.json",
    title: "gjc signers revoke --json",
    schema: Type.Union([SignersRevokeDocumentSchema, errorDocument("signers-revoke")]),
  },
};
