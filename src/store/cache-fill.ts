/**
 * The content cache fill of the store's commit path (issue #14: "every install stores the
 * judged content under its digest"). Both families call it right after their commit point,
 * with the files their record now names and the directory that holds them; the cache re-reads
 * and re-hashes those bytes, so it only ever holds content that matched the record.
 *
 * After the commit point, not before: a cache that cannot be written (a full or read-only
 * cache disk) must not undo an install that is already committed. It only means a later
 * offline sync or rollback has less to work from, which the warning says.
 */
import type { Context } from "../core/context.ts";
import { putCacheEntry, type CachedFile } from "./cache.ts";

export interface CommittedContent {
  name: string;
  family: "gjc" | "c2";
  version: string;
  files: CachedFile[];
}

export function cacheCommitted(ctx: Context, content: CommittedContent, root: string): void {
  try {
    putCacheEntry(ctx, content, root);
  } catch (error) {
    ctx.log.warn(
      `${content.name} is installed, but the content cache was not updated: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
