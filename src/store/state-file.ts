import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { parseBoundedJson } from "../bundle/json.ts";
import type { Context } from "../core/context.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { sameMac, stateKey } from "./state-mac.ts";

/**
 * The one reader of the files gjc reads back: journals, generations, runtime verdicts, lock
 * files, registries. A clone, another local user or a tool can put any of them where gjc looks,
 * so each read answers three questions before its content is believed:
 *
 *   - is it bounded? Its size is judged on the open descriptor before a byte is read (a
 *     300 MiB lock is refused at once, not read into memory), and its JSON goes through the
 *     bundle parser (src/bundle/json.ts): depth, huge numbers and repeated keys are refused
 *     the same way, so nothing downstream overflows the stack;
 *   - is it this user's? A regular file (never through a link), owned by this uid and not
 *     writable by every user, judged as scope directories are (src/store/scope-path.ts);
 *   - for what gjc wrote and later acts on (it finishes a journal, rolls back to a
 *     generation, skips a check because a verdict says so): does it carry this user's
 *     state-key MAC for that purpose?
 *
 * A file that fails the second or third is foreign: the caller warns and goes on as if it were
 * absent; it is never finished, applied, swept or believed. One that fails the first is
 * damaged, and each caller names it with its own code (invalid_lock, registry_corrupt, …),
 * except state that must carry a MAC: what does not parse carries none of ours, so it is
 * foreign too (a planted file never blocks a command as "damaged").
 */

/** The largest state document gjc writes is a registry of 8,192-file bundles; 64 MiB is far above any. */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;

export type StateText = { kind: "missing" } | { kind: "foreign"; problem: string } | { kind: "text"; text: string };

export type StateJson =
  | { kind: "missing" }
  | { kind: "foreign"; problem: string }
  | { kind: "invalid"; problem: string }
  | { kind: "ok"; value: unknown };

export interface StateReadOptions {
  maxBytes?: number;
  /**
   * Whether the file must be this user's (owned, not world-writable). A lock arriving with a
   * repository is judged by its content only; everything gjc writes for itself is owned.
   */
  owned?: boolean;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);

/** The file's text, read from one descriptor after its kind, owner and size are judged there. */
export function readStateText(path: string, o: StateReadOptions = {}): StateText {
  const maxBytes = o.maxBytes ?? MAX_STATE_BYTES;
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    if (code === "ELOOP" || code === "EMLINK") return { kind: "foreign", problem: "it is a symbolic link" };
    throw new GjcError({
      code: "unreadable_file",
      message: `${path} could not be opened (${code ?? "error"}).`,
      hint: "Check its permissions.",
    });
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: "foreign", problem: "it is not a regular file" };
    if (o.owned !== false) {
      const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
      if (uid !== undefined && st.uid !== uid)
        return { kind: "foreign", problem: `it belongs to another user (uid ${st.uid})` };
      if ((st.mode & 0o002) !== 0)
        return { kind: "foreign", problem: `every user may write it (mode ${(st.mode & 0o777).toString(8)})` };
    }
    if (st.size > maxBytes) {
      throw new GjcError({
        code: "file_too_large",
        message: `${path} is ${st.size} bytes, over the ${maxBytes}-byte limit for a gjc state file; it was not read.`,
        hint: "It was not written by gjc: restore it from version control or remove it.",
        details: { path, bytes: st.size, maxBytes },
      });
    }
    const bytes = new Uint8Array(st.size);
    let offset = 0;
    while (offset < st.size) {
      const n = readSync(fd, bytes, offset, st.size - offset, offset);
      if (n === 0) break;
      offset += n;
    }
    return { kind: "text", text: new TextDecoder().decode(bytes.subarray(0, offset)) };
  } finally {
    closeSync(fd);
  }
}

/** Parses state text with the bundle JSON bounds; the problem names what was refused. */
export function parseStateJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: parseBoundedJson(text) };
  } catch (error) {
    const why = error instanceof SyntaxError ? error.message : String(error);
    return { ok: false, problem: `it is not valid JSON (${why})` };
  }
}

/** Reads a state document: bounded, this user's and, with `purpose`, carrying this user's MAC for it. */
export function readStateJson(ctx: Context, path: string, o: StateReadOptions & { purpose?: string } = {}): StateJson {
  const read = readStateText(path, o);
  if (read.kind !== "text") return read;
  const parsed = parseStateJson(read.text);
  // gjc writes its signed state whole (atomically): one that does not even parse carries no
  // signature of ours, so it is foreign, never "damaged state of ours" that blocks a command.
  if (!parsed.ok)
    return o.purpose === undefined
      ? { kind: "invalid", problem: parsed.problem }
      : { kind: "foreign", problem: parsed.problem };
  if (o.purpose === undefined) return { kind: "ok", value: parsed.value };
  const problem = macProblem(ctx, o.purpose, parsed.value);
  if (problem !== undefined) return { kind: "foreign", problem };
  const { mac: _mac, ...rest } = parsed.value as Record<string, unknown>;
  return { kind: "ok", value: rest };
}

/**
 * The MAC of a document for one purpose (`transaction:project`, `generations:user`…): the
 * purpose is bound so a file signed as one kind of state cannot be replayed as another, the
 * location is not, so a project the user moves keeps its state. The text covered is the
 * compact JSON of the document without its `mac` member; JSON.parse then JSON.stringify gives
 * back exactly the text JSON.stringify wrote, so no layout is assumed.
 */
function stateMac(key: Uint8Array, purpose: string, doc: Record<string, unknown>): string {
  const h = new Bun.CryptoHasher("sha256", key);
  h.update(`gjc-state-v1\n${purpose}\n`);
  h.update(JSON.stringify(doc));
  return `hmac-sha256:${h.digest("hex")}`;
}

function macProblem(ctx: Context, purpose: string, value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "it is not a JSON object";
  const { mac, ...rest } = value as Record<string, unknown>;
  if (mac === undefined)
    return "it carries no gjc signature (another tool or an older gjc wrote it, or it came with the repository)";
  let key: Uint8Array | undefined;
  try {
    key = stateKey(ctx, false);
  } catch (error) {
    return isGjcError(error) ? error.message : "the state key cannot be read";
  }
  if (key === undefined || !sameMac(mac, stateMac(key, purpose, rest)))
    return "its signature is not this user's (it was written elsewhere, by another user, or edited)";
  return undefined;
}

/** The text to write for a state document gjc will act on later: the document with its MAC last. */
export function signedStateText(ctx: Context, purpose: string, doc: object, indent?: number): string {
  const key = stateKey(ctx, true) as Uint8Array;
  const plain = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
  delete plain.mac;
  return `${JSON.stringify({ ...plain, mac: stateMac(key, purpose, plain) }, null, indent)}\n`;
}

/** The warning for a foreign state file that is being ignored (never acted on); its code ends the line. */
export function warnForeignState(ctx: Context, what: string, path: string, problem: string): void {
  const code = "foreign_state";
  ctx.log.warn(`ignored ${what} ${path}: ${problem}; gjc acts only on state it wrote for you (${code})`);
}
