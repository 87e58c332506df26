import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import type { Static } from "typebox";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { osErrorFrom } from "../core/os-errors.ts";
import { LockHolder as LockHolderCheck } from "./disk-schemas.generated.ts";
import type { LockHolderSchema } from "./lock-schema.ts";
import { ownStartTicks, processAlive, processStartTicks } from "../process/process-identity.ts";
import { scopePathProblem, unsafeScopePath } from "./scope-path.ts";
import { parseStateJson, readStateText, type StateText } from "./state-file.ts";

/** What a lock file records about its holder (lock-schema.ts); gjc always writes every field. */
export type LockHolder = Static<typeof LockHolderSchema>;

export interface LockOptions {
  /** What the holder is doing, shown to whoever waits (`gjc plugin install`). */
  command: string;
  /** How long to wait for a busy lock before giving up with `lock_busy` (exit 5). */
  timeoutMs?: number;
  /** Lock file name inside `dir`. */
  file?: string;
  /** Words for messages: "the user scope". */
  label?: string;
  /**
   * Where following links stops (src/store/scope-path.ts): every existing directory below it,
   * down to the lock's directory, must be real, checked before anything is created and again
   * after. Unset: the whole path is trusted.
   */
  trustedBase?: string;
}

export const DEFAULT_LOCK_FILE = "registry.lock";

/** The one wait bound every store lock uses: `GJC_LOCK_TIMEOUT_MS` (ms, 0 = do not wait), else the default. */
export function lockTimeout(ctx: Context): number | undefined {
  const raw = ctx.env.GJC_LOCK_TIMEOUT_MS;
  const v = Number(raw);
  return raw !== undefined && raw !== "" && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** For readers that must not act while a writer is mid-commit: held or unclear counts as held; stale does not. */
export function lockHeld(dir: string, file = DEFAULT_LOCK_FILE): boolean {
  const state = inspectLock(dir, file).state;
  return state === "held" || state === "unreadable";
}
export const DEFAULT_LOCK_TIMEOUT_MS = 15_000;

export type LockInspection =
  | { state: "free"; path: string }
  | { state: "held"; path: string; holder: LockHolder }
  | { state: "stale"; path: string; holder: LockHolder; reason: string }
  | { state: "unreadable"; path: string };

const randomToken = () => `${process.pid}-${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;

function parseHolder(text: string): LockHolder | undefined {
  const json = parseStateJson(text);
  return json.ok && LockHolderCheck.check(json.value) ? (json.value as LockHolder) : undefined;
}

/** A holder record is a few hundred bytes; one far larger is not a gjc lock (read as unreadable: never evicted). */
const MAX_HOLDER_BYTES = 64 * 1024;

function readHolder(path: string): LockHolder | "missing" | "unreadable" {
  let read: StateText;
  try {
    // Any owner: another user's lock is still a lock (never taken over on its word alone).
    read = readStateText(path, { owned: false, maxBytes: MAX_HOLDER_BYTES });
  } catch {
    return "unreadable";
  }
  if (read.kind === "missing") return "missing";
  if (read.kind !== "text") return "unreadable";
  return parseHolder(read.text) ?? "unreadable";
}

/**
 * A lock is stale only when its holder is provably gone: recorded on this host, and the pid is
 * not alive, or it is alive but started at another time (the pid was reused). Age alone never
 * makes a lock stale: a slow install on a loaded machine must not be robbed of its lock.
 */
export function staleReason(holder: LockHolder, host = hostname()): string | undefined {
  if (holder.host !== host) return undefined;
  if (holder.pid === process.pid && holder.processStart === ownStartTicks()) return undefined;
  if (!processAlive(holder.pid)) return `process ${holder.pid} is no longer running`;
  if (holder.processStart !== undefined) {
    const now = processStartTicks(holder.pid);
    if (now !== undefined && now !== holder.processStart)
      return `process ${holder.pid} is a different process now (its id was reused)`;
  }
  return undefined;
}

/** Looks at a lock without touching it (doctor, error messages). */
export function inspectLock(dir: string, file = DEFAULT_LOCK_FILE): LockInspection {
  const path = join(dir, file);
  const holder = readHolder(path);
  if (holder === "missing") return { state: "free", path };
  if (holder === "unreadable") return { state: "unreadable", path };
  const reason = staleReason(holder);
  return reason ? { state: "stale", path, holder, reason } : { state: "held", path, holder };
}

/**
 * Removes a lock judged stale, atomically: rename it to a unique side name, check that what we
 * moved is the very lock we judged (another process may have replaced it in between), and put
 * it back if it is not. Returns true when the stale lock is gone.
 */
export function breakStaleLock(path: string, judged: LockHolder): boolean {
  const aside = `${path}.stale-${randomToken()}`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // someone else removed or replaced it first
  }
  const moved = readHolder(aside);
  if (moved !== "missing" && moved !== "unreadable" && moved.token === judged.token) {
    try {
      unlinkSync(aside);
    } catch {}
    return true;
  }
  // We moved a lock that is not the one we judged: restore it unless a new one appeared.
  try {
    linkSync(aside, path);
  } catch {}
  try {
    unlinkSync(aside);
  } catch {}
  return false;
}

function describeHolder(h: LockHolder): string {
  return `process ${h.pid} on ${h.host} (${h.command || "unknown command"}, since ${h.startedAt ?? "an unknown time"})`;
}

/** Creates `dir` and its missing parents, returning the ones we made (outermost first). */
function mkdirTracked(dir: string): string[] {
  const first = mkdirSync(dir, { recursive: true, mode: 0o755 });
  if (first === undefined) return [];
  const made = [first];
  const rest = relative(first, dir);
  if (rest !== "") {
    let cur = first;
    for (const part of rest.split(sep)) {
      cur = join(cur, part);
      made.push(cur);
    }
  }
  return made;
}

/** Removes directories we created, innermost first, as long as they are empty. */
function removeIfEmpty(created: string[]): void {
  for (const dir of [...created].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}

export interface HeldLock {
  path: string;
  holder: LockHolder;
  /** Directories that did not exist before we took the lock. */
  created: string[];
  release(): void;
}

/**
 * Takes the lock file in `dir` (creating `dir` if needed). The lock is written to a private temp
 * file and hard-linked into place, so it appears atomically with its content: no reader ever
 * sees a half-written lock. Waits, polling, until `timeoutMs`, then throws `lock_busy` (exit 5)
 * naming the holder.
 */
export async function acquireLock(dir: string, opts: LockOptions): Promise<HeldLock> {
  const file = opts.file ?? DEFAULT_LOCK_FILE;
  const path = join(dir, file);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const created: string[] = [];
  let wait = 10;
  const realOrThrow = () => {
    const problem = opts.trustedBase === undefined ? undefined : scopePathProblem(opts.trustedBase, dir);
    if (problem !== undefined) {
      removeIfEmpty(created);
      throw unsafeScopePath(opts.label ?? dir, problem);
    }
  };
  realOrThrow();
  for (;;) {
    for (const d of mkdirTracked(dir)) if (!created.includes(d)) created.push(d);
    realOrThrow();
    const holder: LockHolder = {
      pid: process.pid,
      host: hostname(),
      startedAt: new Date().toISOString(),
      processStart: ownStartTicks(),
      command: opts.command,
      token: randomToken(),
    };
    const tmp = join(dirname(path), `.${file}.${holder.token}.tmp`);
    let linked = false;
    try {
      const fd = openSync(tmp, "wx", 0o644);
      try {
        const bytes = Buffer.from(`${JSON.stringify(holder)}\n`);
        writeSync(fd, bytes, 0, bytes.length);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      linkSync(tmp, path);
      linked = true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST" && code !== "ENOENT") {
        try {
          unlinkSync(tmp);
        } catch {}
        removeIfEmpty(created);
        throw (
          osErrorFrom(error, tmp) ??
          new GjcError({
            code: "lock_failed",
            message: `Could not create the lock ${path} (${code ?? "error"}).`,
            hint: "Check that the directory is writable.",
          })
        );
      }
    } finally {
      try {
        unlinkSync(tmp);
      } catch {}
    }
    if (linked) {
      return {
        path,
        holder,
        created,
        release() {
          const now = readHolder(path);
          if (now !== "missing" && now !== "unreadable" && now.token === holder.token) {
            try {
              unlinkSync(path);
            } catch {}
          }
          removeIfEmpty(created);
        },
      };
    }
    const current = readHolder(path);
    if (current !== "missing" && current !== "unreadable" && staleReason(current) !== undefined) {
      breakStaleLock(path, current);
      continue;
    }
    if (Date.now() >= deadline) {
      removeIfEmpty(created);
      const who =
        current === "missing"
          ? "another process"
          : current === "unreadable"
            ? "an unreadable lock file"
            : describeHolder(current);
      throw new GjcError({
        code: "lock_busy",
        message: `${opts.label ? `${capitalize(opts.label)} is` : `${dir} is`} locked by ${who}; gave up after ${timeoutMs} ms.`,
        hint:
          current === "unreadable"
            ? `If no gjc command is running, inspect and remove ${path} by hand (gjc plugin doctor shows it).`
            : "Wait for that command to finish and run this one again. A lock whose process is gone on this host is taken over automatically.",
        details: { lock: path, holder: typeof current === "object" ? current : undefined },
        exit: ExitCode.lockBusy,
      });
    }
    await Bun.sleep(Math.min(wait, Math.max(1, deadline - Date.now())));
    wait = Math.min(wait * 2, 100);
  }
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Runs `fn` while holding the lock in `dir`; the lock is released however `fn` ends. */
export async function withLock<T>(dir: string, opts: LockOptions, fn: (lock: HeldLock) => Promise<T> | T): Promise<T> {
  const lock = await acquireLock(dir, opts);
  try {
    return await fn(lock);
  } finally {
    lock.release();
  }
}
