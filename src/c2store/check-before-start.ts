import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { fileStamp } from "../store/derived-index.ts";
import { verifyFiles } from "../store/verify.ts";
import { readFilesStamp, writeFilesStamp } from "./files-stamp.ts";
import { withC2Lock } from "./lock.ts";
import { bundleDir, c2Layout, recordPath } from "./paths.ts";
import { storedFiles } from "./record.ts";
import { readRecord, writeRecord } from "./records.ts";
import { refreshRecordsIndex } from "./records-index.ts";

/**
 * What runs is what was installed (issue #12, class 10): before a runtime or language server
 * process of an installed bundle starts (`gjc plugin run`, the host plane, `lsp probe`), its
 * content directory is checked against the installed-file records with the same check as
 * `gjc plugin verify` (src/store/verify.ts: lstat walk, size, mode, SHA-256, nothing extra).
 * Drift refuses the start with `runtime_mismatch` and quarantines the bundle in its record,
 * as verify does; a clean verify or a reinstall lifts it.
 *
 * The check is a stat comparison first: a file whose inode, size, change and modification time
 * and mode are those recorded when it last hashed clean (src/c2store/files-stamp.ts) is not read
 * again; any other file is re-hashed, and every file when there is no stamp for this record (the
 * first start after an install). The change time cannot be set back by a user, so an edit with
 * a restored modification time is still re-hashed. The directory walk (missing, extra, links)
 * runs every time. Returns how many files were hashed.
 */
export async function checkC2FilesBeforeStart(ctx: Context, id: string): Promise<{ hashed: number }> {
  const layout = c2Layout(ctx);
  // Taken before the record is read: if the record changes meanwhile, the stamp is not written.
  const recordStamp = fileStamp(recordPath(layout, id));
  const record = readRecord(layout, id);
  if (record === undefined || "problem" in record) {
    throw new GjcError({
      code: "runtime_mismatch",
      message: `The installed record of ${id} cannot be read${record ? ` (${record.problem})` : ""}, so its files cannot be checked; the process was not started.`,
      hint: 'Run "gjc plugin doctor" to see what is wrong, or reinstall the bundle.',
      exit: ExitCode.refused,
    });
  }
  const stamps = new Map<string, string>();
  const check = verifyFiles(bundleDir(layout, id), storedFiles(record), { known: readFilesStamp(layout, id), stamps });
  if (check.ok) {
    if (recordStamp !== undefined && check.checked > 0) writeFilesStamp(layout, id, recordStamp, stamps);
    return { hashed: check.checked };
  }
  const files = check.problems.map((f) => `${f.kind}:${f.path}`);
  let persisted = true;
  try {
    await withC2Lock(ctx, "quarantine before start", async () => {
      const fresh = readRecord(layout, id);
      if (fresh === undefined || "problem" in fresh || fresh.quarantine !== null) return;
      writeRecord(layout, { ...fresh, quarantine: { reason: "runtime_mismatch", files, at: ctx.now().toISOString() } });
      refreshRecordsIndex(layout);
    });
  } catch {
    // The lock is busy or the record cannot be written: the refusal stands without the record.
    persisted = false;
  }
  const first = check.problems[0];
  throw new GjcError({
    code: "runtime_mismatch",
    message: `${record.name}'s installed files changed since it was installed (${first.message}${check.problems.length > 1 ? `, and ${check.problems.length - 1} more` : ""}); its process was not started${persisted ? " and the bundle is quarantined" : ""}.`,
    hint: `Run "gjc plugin verify ${record.name}" to see every change, then reinstall it (gjc plugin install … --force) to restore the installed content.`,
    details: { plugin: id, files },
    exit: ExitCode.refused,
  });
}
