/**
 * The TypeBox schemas of what the plugin sets keep on this machine besides the lock and the
 * content cache (whose `entry.json` is src/store/cache-schema.ts): the generations
 * of a scope (`plugins-history/generations.json`) and the cache's list of known projects
 * (`projects.json`); the transaction journal beside them is the store engine's
 * (src/store/journal-schema.ts). Their checks are generated into src/sets/disk-schemas.generated.ts
 * (`bun scripts/gen-disk-schemas.ts`), so the readers never load TypeBox for a valid file;
 * docs/json/<name>.schema.json is generated from the same schemas.
 *
 * Every schema is closed and says exactly what the current code writes. What a schema cannot
 * say stays in the reader: a cache path must pass the path judge and be listed once, a file's
 * scope must be the scope it was read for, a listed project must still exist.
 */
import Type from "typebox";
import { closed, ScopeSchema } from "../core/schema-kit.ts";
import { StateMacSchema } from "../store/journal-schema.ts";
import { LockEntrySchema } from "../store/plugins-lock-schema.ts";

export const GenerationSchema = Type.Object(
  {
    generation: Type.Integer({ minimum: 1 }),
    at: Type.String(),
    command: Type.String(),
    bundles: Type.Array(LockEntrySchema),
  },
  closed,
);

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

/** `<cache>/projects.json`: the project directories whose sets gjc recorded, sorted. */
export const KnownProjectsSchema = Type.Array(Type.String({ minLength: 1 }));
