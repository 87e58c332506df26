/**
 * What `gjc plugin doctor` reports about the plugin sets: a pending transaction journal (a sync
 * or rollback killed before its last commit, journal.ts) leaves the scope possibly half changed
 * until the next sets verb or store command finishes it. Doctor shows it, with what `--fix`
 * does: finish it (or undo it when its content is gone from the cache) through the same
 * finisher those commands use. A damaged journal is shown and left alone (journal_corrupt: it
 * is never guessed at), a foreign one (not signed for this user) is shown as foreign_state and
 * never acted on. The journal sits beside the GJC scope (plugins-history/ of the scope's
 * set home), so its finding is the GJC store's of that scope, though the change may span both
 * families.
 */
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import { isGjcError } from "../core/errors.ts";
import type { Scope } from "../install/registry-types.ts";
import type { DoctorFinding } from "../store/documents.ts";
import { journalPath, readJournal, type Journal } from "../store/journal.ts";
import { finishPendingSet } from "./pending.ts";

export async function setDoctor(ctx: Context, scopes: Scope[], fix: boolean): Promise<DoctorFinding[]> {
  const out: DoctorFinding[] = [];
  for (const scope of scopes) {
    const path = journalPath(ctx, scope);
    if (!existsSync(path)) continue;
    let j: Journal | undefined;
    try {
      j = readJournal(ctx, scope);
    } catch (error) {
      if (!isGjcError(error) || error.code !== "journal_corrupt") throw error;
      out.push({
        family: "gjc",
        scope,
        kind: "journal_corrupt",
        severity: "error",
        path,
        message: error.message,
        fix: `nothing: a damaged journal is never guessed at. ${error.hint ?? ""}`.trim(),
        fixable: false,
      });
      continue;
    }
    if (!j) {
      // Not signed for this user (a clone shipped it, or another user or tool wrote it): shown, never finished or removed.
      out.push({
        family: "gjc",
        scope,
        kind: "foreign_state",
        severity: "warning",
        path,
        message: `${path} was not written by gjc for you; it is ignored, never finished or undone`,
        fix: "nothing: gjc acts only on state it wrote for you. Remove the file if you do not know where it came from.",
        fixable: false,
      });
      continue;
    }
    const finding: DoctorFinding = {
      family: "gjc",
      scope,
      kind: "transaction_pending",
      severity: "error",
      path,
      message: `"${j.command}" on the ${scope} scope (started ${j.startedAt}) was interrupted; the ${scope} plugin set may be half changed`,
      fix:
        j.forward === undefined
          ? `undo "${j.command}" from the content cache, as the next gjc plugin sync --${scope} would`
          : `finish "${j.command}" from the content cache (or undo it when its content is gone), as the next gjc plugin sync --${scope} would`,
      fixable: true,
    };
    if (fix) {
      try {
        await finishPendingSet(ctx, scope, "gjc plugin doctor --fix");
        finding.fixed = true;
      } catch (error) {
        // transaction_unfinished: its message says why and what to restore; the journal stays.
        finding.fixed = false;
        finding.fix = `could not: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    out.push(finding);
  }
  return out;
}
