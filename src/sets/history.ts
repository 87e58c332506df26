/**
 * Generations of a scope's plugin set: after each command that changed the scope, what was
 * installed (the lock entries: pins, integrity, choices), by which command, when. The last
 * 10 are kept in `plugins-history/generations.json` beside the lock (machine-local), written
 * atomically; their content stays in the content cache, which prune keeps for them.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Static } from "typebox";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import type { Context } from "../core/context.ts";
import type { Scope } from "../install/registry-types.ts";
import { readStateJson, signedStateText, warnForeignState } from "../store/state-file.ts";
import { SetHistory } from "./disk-schemas.generated.ts";
import type { GenerationSchema, HistorySchema } from "./disk-schemas.ts";
import { orderedEntry } from "./lock-file.ts";
import type { LockEntry } from "../store/plugins-lock-schema.ts";
import { historyDir } from "../store/set-paths.ts";

export const KEEP_GENERATIONS = 10;

export type Generation = Static<typeof GenerationSchema>;
export type History = Static<typeof HistorySchema>;

export const historyFile = (ctx: Context, scope: Scope) => join(historyDir(ctx, scope), "generations.json");

/**
 * The scope's history; a missing, unreadable or malformed file (its schema: src/sets/disk-schemas.ts)
 * is an empty history (it is a convenience, not a commit point). Rollback installs what a
 * generation names, so only a history signed for this user counts (src/store/state-file.ts):
 * one that came with a clone, or that an older gjc wrote unsigned, is ignored with a warning.
 */
export function readHistory(ctx: Context, scope: Scope): History {
  const path = historyFile(ctx, scope);
  try {
    const read = readStateJson(ctx, path, { purpose: `generations:${scope}` });
    if (read.kind === "foreign") warnForeignState(ctx, "the history", path, read.problem);
    if (read.kind === "ok" && SetHistory.check(read.value) && (read.value as History).scope === scope)
      return read.value as History;
  } catch {}
  return { version: 1, scope, generations: [] };
}

const sameBundles = (a: LockEntry[], b: LockEntry[]) => Bun.deepEquals(a.map(orderedEntry), b.map(orderedEntry));

/** Appends a generation when the set differs from the newest one; keeps the last 10. */
export function recordGeneration(
  ctx: Context,
  scope: Scope,
  command: string,
  bundles: LockEntry[],
): Generation | undefined {
  const h = readHistory(ctx, scope);
  const last = h.generations[h.generations.length - 1];
  if (last && sameBundles(last.bundles, bundles)) return undefined;
  if (!last && bundles.length === 0) return undefined;
  const g: Generation = {
    generation: (last?.generation ?? 0) + 1,
    at: ctx.now().toISOString(),
    command,
    bundles: bundles.map(orderedEntry),
  };
  const generations = [...h.generations, g].slice(-KEEP_GENERATIONS);
  mkdirSync(historyDir(ctx, scope), { recursive: true, mode: 0o755 });
  writeFileAtomic(
    historyFile(ctx, scope),
    signedStateText(ctx, `generations:${scope}`, { version: 1, scope, generations }, 2),
  );
  return g;
}
