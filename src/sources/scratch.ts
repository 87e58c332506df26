import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { cacheRoot, type Context } from "../core/context.ts";
import { processAlive } from "../process/process-identity.ts";
import { sourceError } from "./errors.ts";

/**
 * Private scratch (issue #12, class 4): the one place every temporary directory of gjc comes
 * from — fetched and extracted sources, the empty bunfig a bun child is started with, the
 * runtime-check harness, a `plugin test` runtime's data directory.
 *
 * Where: `<cache>/scratch` (`$GJC_CACHE_DIR`, else `$XDG_CACHE_HOME/gjc`, else `~/.cache/gjc`),
 * inside the user's own gjc directory, never in the shared temp dir. A per-user name in /tmp
 * (`/tmp/gjc-<uid>`) is predictable: another local user who makes it first blocks every fetch
 * (or, were we less careful, reads and rewrites it); and TMPDIR pointing at a directory that
 * does not exist stopped every fetch. The cache directory is the user's, needs no TMPDIR, and
 * sits on the same file system as the content cache.
 *
 * Why it is checked anyway: a fetched source is judged in memory, written into scratch, then
 * read back by the collector, and a bun child reads its config from there; whoever could write
 * in scratch could swap judged bytes or inject a preload. So the parent is created 0700 and,
 * whether just made or already there, must be a real directory (not a link) owned by this user
 * (left with no group/other access), inside a directory others cannot rename it out of (not
 * writable by others, or sticky, and owned by us or root). Each use then gets its own `mkdtemp`
 * directory (random name, 0700) below it. Links above the cache directory (a dotfile manager's
 * `~/.cache`) are followed: they are the user's own.
 *
 * On platforms without uids (Windows) only the directory checks apply.
 */
export function scratchParent(ctx: Context): string {
  return join(cacheRoot(ctx), "scratch");
}

/**
 * A fresh private directory `<parent>/<kind>-<pid>-<random>`; the caller removes it. Leftovers
 * of a gjc that died (kill -9) are swept here: a sibling whose process is gone and that is
 * older than an hour (the age guards against a gjc in another pid namespace sharing this home).
 */
export function makeScratch(parent: string, kind = "fetch"): string {
  checkPrivateParent(parent);
  sweepStale(parent);
  return mkdtempSync(join(parent, `${kind}-${process.pid}-`));
}

/** `makeScratch` in the user's scratch parent. */
export function privateScratch(ctx: Context, kind: string): string {
  return makeScratch(scratchParent(ctx), kind);
}

export function checkPrivateParent(parent: string): void {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const outer = dirname(parent);
  try {
    // The cache directory itself is made like store/cache.ts makes it (0700); only what we
    // create is tightened, an existing directory above is judged as it is.
    mkdirSync(outer, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw unsafe(parent, `its parent ${outer} cannot be created (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  let outerStat;
  try {
    outerStat = statSync(outer);
  } catch (error) {
    throw unsafe(parent, `its parent ${outer} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  if (uid !== undefined) {
    const othersMayWrite = (outerStat.mode & 0o022) !== 0;
    const sticky = (outerStat.mode & 0o1000) !== 0;
    if (othersMayWrite && !sticky)
      throw unsafe(parent, `its parent ${outer} is writable by other users and not sticky, so they could replace it`);
    if (outerStat.uid !== uid && outerStat.uid !== 0)
      throw unsafe(parent, `its parent ${outer} belongs to another user (uid ${outerStat.uid})`);
  }
  try {
    mkdirSync(parent, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST")
      throw unsafe(parent, `it cannot be created (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  const st = lstatSync(parent);
  if (st.isSymbolicLink()) throw unsafe(parent, "it is a symbolic link");
  if (!st.isDirectory()) throw unsafe(parent, "it is not a directory");
  if (uid !== undefined) {
    if (st.uid !== uid) throw unsafe(parent, `it belongs to another user (uid ${st.uid})`);
    // Ours but loose (made by hand or by a test): tightened, so from here on only we can enter it.
    if ((st.mode & 0o077) !== 0) chmodSync(parent, 0o700);
  }
}

const STALE_MS = 60 * 60 * 1000;
const OURS = /^[a-z][a-z0-9]*-(\d+)-[A-Za-z0-9]{6}$/;

function sweepStale(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const m = OURS.exec(name);
    if (!m || Number(m[1]) === process.pid || processAlive(Number(m[1]))) continue;
    const path = join(parent, name);
    try {
      // rmSync removes links as links: the parent is private, nothing in it is followed.
      if (now - lstatSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // another gjc swept it first
    }
  }
}

function unsafe(root: string, why: string) {
  return sourceError(
    "security_policy",
    `The scratch directory ${root} is not private: ${why}. Nothing was fetched or started.`,
    `Remove ${root} if it is not yours (gjc makes it again, 0700), or point GJC_CACHE_DIR at a directory only you can write.`,
    { scratchRoot: root },
  );
}
