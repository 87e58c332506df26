/**
 * The store engine's journal: what makes a change with several commit points one transaction
 * of a scope across both families. A sync, rollback or upgrade --all commits in several places
 * (the GJC scope's registry.json; per C2 bundle its home, its enable and trust flips; the
 * project's C2 policy), each crash-safe on its own; this intent journal ties them together:
 *
 *   - it is written (atomically, signed with the state key) after every piece of content is
 *     judged and stored in the content cache, before the first commit point;
 *   - it names the whole change both ways: `forward` (the set being made) and `backward` (the
 *     bundles it touches as they were), each as a small lock applied offline from the cache
 *     alone; a change that learns its new content only while it commits (upgrade --all) names
 *     only `backward`, and a crash in its middle is undone;
 *   - it is removed after the last commit.
 *
 * Every change of a scope's set runs under the scope's set lock (withSetTransaction) and first
 * finishes a journal it finds (a journal under a lock we hold belongs to a dead process), and
 * so does every mutating store command before it starts (pendingScopes): it rolls forward, or
 * back when forward cannot be done (its content gone from the cache), so the scope is the old
 * set or the new one before anything else looks at it. The finisher that applies a direction
 * is the set pipeline's (src/sets/sync.ts), handed in by the caller. A journal gjc did not sign
 * for this user is foreign: warned about, never finished, undone or removed.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Static } from "typebox";
import { fsyncDir, writeFileAtomic } from "../bundle/atomic-fs.ts";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "../core/scope.ts";
import { SetJournal } from "./disk-schemas.generated.ts";
import { documentProblem } from "./document-problem.ts";
import type { JournalSchema, JournalTargetSchema } from "./journal-schema.ts";
import { lockTimeout, withLock } from "./lock.ts";
import { historyDir, setHome } from "./set-paths.ts";
import { readStateJson, signedStateText, warnForeignState } from "./state-file.ts";

export type JournalTarget = Static<typeof JournalTargetSchema>;
export type Journal = Static<typeof JournalSchema>;

export const SET_LOCK_FILE = "plugins-set.lock";
export const journalPath = (ctx: Context, scope: Scope) => join(historyDir(ctx, scope), "transaction.json");
export const bundleKey = (e: { family: string; name: string }) => `${e.family}:${e.name}`;

/**
 * The pending journal of the scope, if any; a damaged one (not JSON, not its schema in
 * src/sets/disk-schemas.ts, another scope's) fails closed, naming the bad field: it is never
 * guessed at, since finishing half of a change could make the set neither the old nor the new one.
 */
export function readJournal(ctx: Context, scope: Scope): Journal | undefined {
  const path = journalPath(ctx, scope);
  // A journal is acted on (finished, undone, its trust list applied): only one gjc signed for
  // this user counts. A clone can ship .gjc/plugins-history/transaction.json; that one is foreign.
  const read = readStateJson(ctx, path, { purpose: `transaction:${scope}` });
  if (read.kind === "missing") return undefined;
  if (read.kind === "foreign") {
    warnForeignState(ctx, "the transaction journal", path, read.problem);
    return undefined;
  }
  if (read.kind === "invalid") throw journalCorrupt(path, scope, read.problem);
  const raw = read.value;
  const problem = documentProblem(SetJournal, raw);
  if (problem !== undefined) throw journalCorrupt(path, scope, problem);
  const j = raw as Journal;
  if (j.scope !== scope) throw journalCorrupt(path, scope, `it belongs to the ${j.scope} scope (at /scope)`);
  return j;
}

function journalCorrupt(path: string, scope: Scope, problem: string): GjcError {
  return new GjcError({
    code: "journal_corrupt",
    message: `The transaction journal ${path} of an interrupted gjc command is damaged (${problem}); the ${scope} plugin set may be half changed.`,
    hint: `Look at the set with "gjc plugin list" and "gjc plugin lock --${scope} --check", remove ${path}, then run "gjc plugin sync --${scope}".`,
    details: { path, problem },
    exit: ExitCode.failed,
  });
}

export function writeJournal(ctx: Context, j: Journal): void {
  const path = journalPath(ctx, j.scope);
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  writeFileAtomic(path, signedStateText(ctx, `transaction:${j.scope}`, j, 2));
}

export function clearJournal(ctx: Context, scope: Scope): void {
  const path = journalPath(ctx, scope);
  rmSync(path, { force: true });
  try {
    fsyncDir(dirname(path));
  } catch {}
}

/**
 * The commit phase of a change with several commit points, run under the set lock: `journal`
 * is written first (absent when finishing the one already on disk), `journaled` runs (the
 * crash tests stop there), then `commit`; the journal is removed after the last commit. A
 * refusal half-way (a live runtime, a name conflict) is not a crash: what was committed is
 * undone at once through `finish`, and the journal stays for the next command only when even
 * that fails.
 */
export async function commitJournaled(
  ctx: Context,
  scope: Scope,
  journal: Journal | undefined,
  finish: JournalFinisher,
  journaled: () => void,
  commit: () => Promise<void>,
): Promise<void> {
  if (journal) writeJournal(ctx, journal);
  journaled();
  try {
    await commit();
  } catch (error) {
    if (journal) await undoNow(ctx, scope, finish);
    throw error;
  }
  clearJournal(ctx, scope);
}

async function undoNow(ctx: Context, scope: Scope, finish: JournalFinisher): Promise<void> {
  const j = readJournal(ctx, scope);
  if (!j) return;
  try {
    await finish(j, "backward");
  } catch (error) {
    ctx.log.warn(
      `could not undo the failed change yet (${(error as Error).message}); the next gjc plugin sync finishes or undoes it`,
    );
  }
}

/** The refusal of read-only verbs (lock --check) while a change is unfinished. */
export function pendingJournal(scope: Scope, j: Journal): GjcError {
  return new GjcError({
    code: "transaction_pending",
    message: `"${j.command}" on the ${scope} scope (started ${j.startedAt}) did not finish; the installed set may be half changed, so it is not compared with the lock.`,
    hint: `Run "gjc plugin sync --${scope}" (or gjc plugin lock --${scope}): it first finishes or undoes that change.`,
    details: { command: j.command, startedAt: j.startedAt },
    exit: ExitCode.failed,
  });
}

/** Applies one direction of a journal (sync does, offline, from the cache). */
export type JournalFinisher = (j: Journal, dir: "forward" | "backward") => Promise<void>;

/**
 * Runs `fn` under the scope's set lock, after finishing a journal a dead command left; without
 * `finish` (a dry run) a pending journal is only reported.
 */
export async function withSetTransaction<T>(
  ctx: Context,
  scope: Scope,
  command: string,
  finish: JournalFinisher | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  return withLock(
    setHome(ctx, scope),
    { command, file: SET_LOCK_FILE, timeoutMs: lockTimeout(ctx), label: `the ${scope} plugin set` },
    async () => {
      inTransaction++;
      try {
        await finishInterrupted(ctx, scope, finish);
        return await fn();
      } finally {
        inTransaction--;
      }
    },
  );
}

/** Set transactions running in this process: their own store commits must not wait for themselves. */
let inTransaction = 0;
export const inSetTransactionNow = () => inTransaction > 0;

/**
 * The scopes (user, and this project) with a pending journal gjc signed for this user: a
 * mutating command finishes those first (src/sets/pending.ts). A foreign one is warned about
 * and left alone, so it never blocks a command. Costs two stat calls when there is none.
 */
export function pendingScopes(ctx: Context): Scope[] {
  if (inTransaction > 0) return [];
  return (["user", "project"] as const).filter(
    (scope) => existsSync(journalPath(ctx, scope)) && readJournal(ctx, scope) !== undefined,
  );
}

async function finishInterrupted(ctx: Context, scope: Scope, finish: JournalFinisher | undefined): Promise<void> {
  const j = readJournal(ctx, scope);
  if (!j) return;
  if (finish === undefined) {
    ctx.log.warn(
      `"${j.command}" on the ${scope} scope (${j.startedAt}) did not finish; a dry run changes nothing, so it is left for the next real command to finish or undo`,
    );
    return;
  }
  let forwardError: unknown;
  if (j.forward !== undefined) {
    try {
      await finish(j, "forward");
      ctx.log.warn(`finished "${j.command}", which was interrupted (${j.startedAt})`);
      return;
    } catch (error) {
      forwardError = error;
    }
  } else forwardError = new Error("its journal names only the way back");
  try {
    await finish(j, "backward");
    ctx.log.warn(
      `undid "${j.command}", which was interrupted (${j.startedAt})${j.forward !== undefined ? ` and could not be finished: ${(forwardError as Error).message}` : ""}`,
    );
  } catch (error) {
    throw new GjcError({
      code: "transaction_unfinished",
      message: `"${j.command}" on the ${scope} scope was interrupted and can be neither finished (${(forwardError as Error).message}) nor undone (${(error as Error).message}).`,
      hint: `Its journal stays at ${journalPath(ctx, scope)}. Restore the content it needs (gjc plugin sync --from <set.tgz>, or reinstall), then run "gjc plugin sync --${scope}" again.`,
      details: { journal: journalPath(ctx, scope) },
      exit: ExitCode.failed,
    });
  }
}
