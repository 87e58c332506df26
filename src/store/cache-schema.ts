/**
 * The TypeBox schema of a content cache entry's `entry.json` (in the cache and inside set
 * archives). Its check is generated into src/store/disk-schemas.generated.ts
 * (`bun scripts/gen-disk-schemas.ts`), so the cache never loads TypeBox for a valid entry;
 * docs/json/cache-entry.schema.json is generated from it. What the schema cannot say stays in
 * the reader: every path must pass the path judge and be listed once.
 */
import Type from "typebox";
import { closed, FamilySchema } from "../core/schema-kit.ts";
import { INTEGRITY_PATTERN } from "./integrity.ts";

/** One file of a cache entry: the (path, mode, sha256) its integrity covers, and its size. */
export const CachedFileSchema = Type.Object(
  {
    path: Type.String({ minLength: 1 }),
    /** Permission bits as installed (tar keeps only the execute bit; this is the exact mode). */
    mode: Type.Integer({ minimum: 0, maximum: 0o777 }),
    sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
    bytes: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  },
  closed,
);

/** `content/<integrity hex>/entry.json`, in the cache and in a set archive. */
export const CacheEntrySchema = Type.Object(
  {
    integrity: Type.String({ pattern: INTEGRITY_PATTERN }),
    name: Type.String(),
    family: FamilySchema,
    version: Type.String(),
    files: Type.Array(CachedFileSchema, { minItems: 1 }),
  },
  closed,
);
