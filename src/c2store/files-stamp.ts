import { join } from "node:path";
import type { Static } from "typebox";
import type { FilesStampSchema } from "../store/index-schemas.ts";
import { fileStamp, readDerivedIndex, writeDerivedIndex } from "../store/derived-index.ts";
import { FilesStamp } from "../store/disk-schemas.generated.ts";
import { bundleHome, recordPath, type C2Layout } from "./paths.ts";

/**
 * The stat stamps of an installed bundle's files as they were when they last hashed clean
 * (issue #12, class 10): a derived, disposable file beside the record, written by gjc only, so
 * the check before a process start re-hashes only what changed. It holds the record's own
 * fileStamp: a reinstall, upgrade or quarantine rewrites the record (by rename), and a stamp made
 * for another record is not used. Missing, torn or stale means every file is hashed again.
 */
export const FILES_STAMP_FILE = "files-stamp.json";
const FORMAT = 1;

type StampBody = Static<typeof FilesStampSchema>;

function stampPath(layout: C2Layout, id: string): string {
  return join(bundleHome(layout, id), FILES_STAMP_FILE);
}

/** The stamps recorded for this bundle's current record, or undefined. Never throws. */
export function readFilesStamp(layout: C2Layout, id: string): Map<string, string> | undefined {
  const record = fileStamp(recordPath(layout, id));
  const body = readDerivedIndex(stampPath(layout, id), FORMAT, FilesStamp) as StampBody | undefined;
  if (record === undefined || body === undefined || body.record !== record) return undefined;
  return new Map(Object.entries(body.files));
}

/** Records the stamps of a clean check; a failure only costs a full hash next time. */
export function writeFilesStamp(
  layout: C2Layout,
  id: string,
  recordStamp: string,
  files: ReadonlyMap<string, string>,
): void {
  try {
    // Only when the record is still the one that was checked (an install may have replaced it).
    if (fileStamp(recordPath(layout, id)) !== recordStamp) return;
    writeDerivedIndex(stampPath(layout, id), FORMAT, {
      record: recordStamp,
      files: Object.fromEntries(files),
    } satisfies StampBody);
  } catch {
    // The bundle home went away or is not writable: nothing to record.
  }
}
