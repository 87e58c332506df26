/**
 * Generations of a scope's plugin set: after each command that changed the scope, what was
 * installed (the lock entries: pins, integrity, choices), by which command, when. The last
 * 10 are kept in `plugins-history/generations.json` beside the lock (machine-local), written
 * atomically; their content stays in the content cache, which prune keeps for them.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Static } from "typebox";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import type { Context } from "../core/context.ts";
import type { Scope } from "../install/registry-types.ts";
import { SetHistory } from "./disk-schemas.generated.ts";
import type { GenerationSchema, HistorySchema } from "./disk-schemas.ts";
import { orderedEntry } from "./lock-file.ts";
import type { LockEntry } from "./lock-schema.ts";
import { historyDir } from "./paths.ts";

export const KEEP_GENERATIONS = 10;

export type Generation = Static<typeof GenerationSchema>;
export type History = Static<typeof HistorySchema>;

export const historyFile = (ctx: Context, scope: Scope) => join(historyDir(ctx, scope), "generations.json");

/**
 * The scope's history; a missing, unreadable or malformed file (its schema: src/sets/disk-schemas.ts)
 * is an empty history (it is a convenience, not a commit point).
 */
export function readHistory(ctx: Context, scope: Scope): History {
  try {
    const h: unknown = JSON.parse(readFileSync(historyFile(ctx, scope), "utf8"));
    if (SetHistory.check(h) && (h as History).scope === scope) return h as History;
  } catch {}
  return { version: 1, scope, generations: [] };
}

const sameBundles = (a: LockEntry[], b: LockEntry[]) => Bun.deepEquals(a.map(orderedEntry), b.map(orderedEntry));

/** Appends a generation when the set differs from the newest one; keeps the last 10. */
export function recordGeneration(ctx: Context, scope: Scope, command: string, bundles: LockEntry[]): Generation | undefined {
  const h = readHistory(ctx, scope);
  const last = h.generations[h.generations.length - 1];
  if (last && sameBundles(last.bundles, bundles)) return undefined;
  if (!last && bundles.length === 0) return undefined;
  const g: Generation = { generation: (last?.generation ?? 0) + 1, at: ctx.now().toISOString(), command, bundles: bundles.map(orderedEntry) };
  const generations = [...h.generations, g].slice(-KEEP_GENERATIONS);
  mkdirSync(historyDir(ctx, scope), { recursive: true, mode: 0o755 });
  writeFileAtomic(historyFile(ctx, scope), `${JSON.stringify({ version: 1, scope, generations }, null, 2)}\n`);
  return g;
}
