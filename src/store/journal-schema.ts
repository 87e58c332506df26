/**
 * The store engine's transaction journal (`plugins-history/transaction.json`, src/store/journal.ts)
 * as a closed TypeBox schema. Its check is generated into src/store/disk-schemas.generated.ts
 * (`bun scripts/gen-disk-schemas.ts`), with docs/json/set-journal.schema.json, so reading a
 * journal never loads TypeBox.
 */
import Type from "typebox";
import { closed, ScopeSchema } from "../core/schema-kit.ts";
import { LockEntrySchema, LockPolicySchema } from "./plugins-lock-schema.ts";

/**
 * The state-key MAC of a document gjc acts on later (src/store/state-file.ts); written last by
 * every gjc that signs, absent in files of an older gjc (which are then foreign: ignored).
 */
export const StateMacSchema = Type.String({ pattern: "^hmac-sha256:[0-9a-f]{64}$" });

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
