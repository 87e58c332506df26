/**
 * The TypeBox schemas of what the plugin sets keep on this machine besides the lock and the
 * content cache (whose `entry.json` is src/store/cache-schema.ts): the generations
 * of a scope (`plugins-history/generations.json`), the transaction journal
 * (`plugins-history/transaction.json`) and the cache's list of known projects
 * (`projects.json`). Their checks are generated into src/sets/disk-schemas.generated.ts
 * (`bun scripts/gen-disk-schemas.ts`), so the readers never load TypeBox for a valid file;
 * docs/json/<name>.schema.json is generated from the same schemas.
 *
 * Every schema is closed and says exactly what the current code writes. What a schema cannot
 * say stays in the reader: a cache path must pass the path judge and be listed once, a file's
 * scope must be the scope it was read for, a listed project must still exist.
 */
import Type from "typebox";
import { closed, ScopeSchema } from "../core/schema-kit.ts";
import { LockEntrySchema, LockPolicySchema } from "./lock-schema.ts";

export const GenerationSchema = Type.Object(
  {
    generation: Type.Integer({ minimum: 1 }),
    at: Type.String(),
    command: Type.String(),
    bundles: Type.Array(LockEntrySchema),
  },
  closed,
);

/**
 * The state-key MAC of a document gjc acts on later (src/store/state-file.ts); written last by
 * every gjc that signs, absent in files of an older gjc (which are then foreign: ignored).
 */
const StateMacSchema = Type.String({ pattern: "^hmac-sha256:[0-9a-f]{64}$" });

/** `plugins-history/generations.json`: the last generations of one scope's set, oldest first. */
export const HistorySchema = Type.Object(
  {
    version: Type.Literal(1),
    scope: ScopeSchema,
    generations: Type.Array(GenerationSchema),
    mac: Type.Optional(StateMacSchema),
  },
  closed,
);

/** One direction of a journaled change: make the bundles named by `only` exactly `bundles`. */
export const JournalTargetSchema = Type.Object(
  {
    bundles: Type.Array(LockEntrySchema),
    /** `family:name` of every bundle the change touches; the rest of the scope is left alone. */
    only: Type.Array(Type.String()),
    /** `family:name` of the touched bundles that are absent in this direction. */
    remove: Type.Array(Type.String()),
    /** C2 bundles whose trust this direction keeps or gives (never more than the command had). */
    trust: Type.Array(Type.String()),
    /** Project scope: the project's C2 policy in this direction (absent: not touched). */
    policies: Type.Optional(Type.Array(LockPolicySchema)),
  },
  closed,
);

/** `plugins-history/transaction.json`: an unfinished sync, rollback or upgrade --all (src/sets/journal.ts). */
export const JournalSchema = Type.Object(
  {
    version: Type.Literal(1),
    scope: ScopeSchema,
    command: Type.String(),
    startedAt: Type.String(),
    /** The crash-point prefix of the interrupted command (sync, rollback, upgrade-all). */
    step: Type.String(),
    /**
     * The set being made. Absent when the new content was not known before the first commit
     * (upgrade --all: each bundle's family fetches and commits it): such a change is undone.
     */
    forward: Type.Optional(JournalTargetSchema),
    backward: JournalTargetSchema,
    mac: Type.Optional(StateMacSchema),
  },
  closed,
);

/** `<cache>/projects.json`: the project directories whose sets gjc recorded, sorted. */
export const KnownProjectsSchema = Type.Array(Type.String({ minLength: 1 }));
