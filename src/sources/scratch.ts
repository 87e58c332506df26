import { chmodSync, lstatSync, mkdirSync, mkdtempSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { sourceError } from "./errors.ts";

/**
 * Private scratch for fetching and extracting (issue #12, class 4). A fetched source is judged
 * in memory and then written into scratch, which the collector reads back: if another local
 * user could write there (a predictable shared `/tmp/gjc-fetch` they created first, or a loose
 * parent), they could swap a judged file for another between the two. So the parent named by
 * the caller (one per user, e.g. `$TMPDIR/gjc-<uid>`) is created 0700 and, whether it was just
 * made or already there, must be a real directory (not a link) owned by this user (left with no
 * group/other access), inside a directory others cannot rename it out of (not writable by
 * others, or sticky like /tmp, and owned by us or root). Each fetch then gets its own
 * `mkdtemp` directory (random name, 0700) below it.
 *
 * On platforms without uids (Windows) only the directory checks apply.
 */
export function makeScratch(scratchRoot: string): string {
  checkPrivateParent(scratchRoot);
  return mkdtempSync(join(scratchRoot, "fetch-"));
}

export function checkPrivateParent(scratchRoot: string): void {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const outer = dirname(scratchRoot);
  let outerStat;
  try {
    outerStat = statSync(outer);
  } catch (error) {
    throw unsafe(scratchRoot, `its parent ${outer} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  if (uid !== undefined) {
    const othersMayWrite = (outerStat.mode & 0o022) !== 0;
    const sticky = (outerStat.mode & 0o1000) !== 0;
    if (othersMayWrite && !sticky) throw unsafe(scratchRoot, `its parent ${outer} is writable by other users and not sticky, so they could replace it`);
    if (outerStat.uid !== uid && outerStat.uid !== 0) throw unsafe(scratchRoot, `its parent ${outer} belongs to another user (uid ${outerStat.uid})`);
  }
  try {
    mkdirSync(scratchRoot, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw unsafe(scratchRoot, `it cannot be created (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  const st = lstatSync(scratchRoot);
  if (st.isSymbolicLink()) throw unsafe(scratchRoot, "it is a symbolic link");
  if (!st.isDirectory()) throw unsafe(scratchRoot, "it is not a directory");
  if (uid !== undefined) {
    if (st.uid !== uid) throw unsafe(scratchRoot, `it belongs to another user (uid ${st.uid})`);
    // Ours but loose (made by hand or by a test): tightened, so from here on only we can enter it.
    if ((st.mode & 0o077) !== 0) chmodSync(scratchRoot, 0o700);
  }
}

function unsafe(root: string, why: string) {
  return sourceError(
    "security_policy",
    `The scratch directory ${root} is not private: ${why}. Nothing was fetched.`,
    `Remove ${root} if it is not yours (gjc makes it again, 0700), or point TMPDIR at a directory only you can write.`,
    { scratchRoot: root },
  );
}
