/**
 * `gjc plugin session --json` (gjc/session@1): the session plan a host acts on, as a closed
 * TypeBox schema. docs/json/session.schema.json is generated from it (`bun scripts/gen-verb-schemas.ts`)
 * and every e2e document is checked against it. Appendix/advertisement maps are keyed by the
 * host's skill and agent names and hold bundle text, so they stay string records.
 */
import Type from "typebox";
import { closed, count, nullable, opt, str, strs } from "../core/schema-kit.ts";
import { errorDocument, ScopeSchema } from "../store/documents.ts";

const status = Type.Enum(["active", "disabled", "quarantined", "excluded"]);
const owner = { scope: ScopeSchema, bundle: str, surfaceId: str };

/** A sub-skill-scoped tool module: an installed, verified file of the bundle. */
const SubskillToolSchema = Type.Object(
  { path: str, module: str, sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }) },
  closed,
);
const ReasonSchema = Type.Object({ surfaceId: str, code: str, message: str, persisted: Type.Boolean() }, closed);
const BundleSchema = Type.Object(
  {
    scope: ScopeSchema,
    name: str,
    version: str,
    status,
    /** Quarantined, whatever else its status says (a disabled bundle can be quarantined too). */
    quarantined: Type.Boolean(),
    root: str,
    reasons: Type.Array(ReasonSchema),
    collision: opt(Type.Object({ with: strs, surfaceIds: strs }, closed)),
    surfaces: Type.Array(Type.Object({ id: str, kind: str, status, reasons: Type.Array(ReasonSchema) }, closed)),
  },
  closed,
);
const McpServerSchema = Type.Union([
  // pinDigest: what the server's pin holds over its tools, instructions, prompts and resources; null when unpinned.
  Type.Object(
    {
      ...owner,
      name: str,
      pinDigest: nullable(str),
      transport: Type.Literal("stdio"),
      command: str,
      args: strs,
      cwd: str,
      envAllowList: strs,
      bunFlags: strs,
    },
    closed,
  ),
  Type.Object(
    { ...owner, name: str, pinDigest: nullable(str), transport: Type.Enum(["http", "sse"]), url: str, addresses: strs },
    closed,
  ),
]);
const SessionDiagnosticSchema = Type.Object(
  {
    code: str,
    severity: Type.Enum(["error", "warning"]),
    scope: opt(ScopeSchema),
    bundle: opt(str),
    surfaceId: opt(str),
    message: str,
    hint: opt(str),
  },
  closed,
);
const RuntimeCheckSchema = Type.Object(
  {
    checked: count,
    failed: count,
    results: Type.Array(Type.Object({ ...owner, ok: Type.Boolean(), code: opt(str), message: opt(str) }, closed)),
  },
  closed,
);

export const SessionDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/session@1"),
    ok: Type.Boolean(),
    projectDir: str,
    scopes: Type.Array(
      Type.Object(
        {
          scope: ScopeSchema,
          root: str,
          ok: Type.Boolean(),
          problem: opt(str),
          /** Read from a registry the GJC agent wrote: loaded, never written by gjc. */ readOnly: opt(Type.Boolean()),
        },
        closed,
      ),
    ),
    bundles: Type.Array(BundleSchema),
    systemAppendix: str,
    agentAppendices: Type.Record(str, str),
    appendixDigest: Type.String({ pattern: "^[0-9a-f]{64}$" }),
    advertisements: Type.Object({ skills: Type.Record(str, str), agents: Type.Record(str, str) }, closed),
    // tools: the sub-skill-scoped tool modules, for the host to load while that phase is active.
    subskills: Type.Array(
      Type.Object(
        {
          extensionId: str,
          scope: ScopeSchema,
          plugin: str,
          name: str,
          parent: str,
          phase: str,
          activationArg: str,
          description: str,
          tools: Type.Array(SubskillToolSchema),
        },
        closed,
      ),
    ),
    tools: Type.Array(Type.Object({ ...owner, name: str, description: nullable(str), module: str }, closed)),
    hooks: Type.Array(
      Type.Object(
        {
          ...owner,
          name: str,
          event: str,
          phase: nullable(Type.Enum(["before", "after"])),
          target: nullable(str),
          module: str,
        },
        closed,
      ),
    ),
    mcpServers: Type.Array(McpServerSchema),
    diagnostics: Type.Array(SessionDiagnosticSchema),
    runtimeCheck: nullable(RuntimeCheckSchema),
    persistedQuarantine: count,
  },
  closed,
);

const ActivatedSchema = Type.Object(
  {
    scope: ScopeSchema,
    plugin: str,
    surfaceId: str,
    name: str,
    parent: str,
    phase: str,
    activationArg: str,
    sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
    block: str,
    tools: Type.Array(SubskillToolSchema),
  },
  closed,
);
/** `gjc plugin activate --json` (gjc/activate@1): which sub-skill an invocation activates and what to inject. */
export const ActivateDocumentSchema = Type.Object(
  {
    schema: Type.Literal("gjc/activate@1"),
    ok: Type.Literal(true),
    skill: str,
    phase: str,
    consumed: nullable(str),
    args: strs,
    cleanedArgs: str,
    activation: nullable(ActivatedSchema),
    pack: Type.Array(ActivatedSchema),
    inject: str,
  },
  closed,
);

export const SESSION_DOCUMENTS = {
  "gjc/activate@1": {
    file: "activate.schema.json",
    title: "gjc plugin activate --json",
    schema: Type.Union([ActivateDocumentSchema, errorDocument("activate")]),
  },
  "gjc/session@1": {
    file: "session.schema.json",
    title: "gjc plugin session --json",
    schema: Type.Union([SessionDocumentSchema, errorDocument("session")]),
  },
};
