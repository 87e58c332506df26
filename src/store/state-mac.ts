import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { hmacSha256Hex } from "../bundle/hash.ts";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";

/**
 * State gjc wrote for this user, told apart from state that arrived some other way (issue #12,
 * class 2). A repository can ship `.gjc/gjc-plugins/registry.json` with content directories
 * whose hashes match: every check of the registry's own consistency passes. What it cannot
 * ship is a MAC made with a secret only this user has: registry.json carries
 * `mac: HMAC-SHA256(key, …)`, the key being 32 random bytes created 0600 in the user's own
 * `~/.gjc/state.key` on the first write. A registry without a valid MAC is foreign: never
 * loaded, run, upgraded or deleted, only shown, with the ways out.
 *
 * What the MAC covers: the scope name and the registry's content, not its location, so a
 * project copied or moved by the same user keeps working. It proves "written by gjc for a
 * holder of this key", nothing more: a process of this user can always write what this user
 * can (that is outside the threat this guards against).
 */
export const STATE_KEY_FILE = "state.key";
const KEY_HEX = /^[0-9a-f]{64}\n?$/;
// Only keys found are remembered: another gjc process may make the key at any time.
const cache = new Map<string, Uint8Array>();

export function stateKeyPath(ctx: Context): string {
  return join(ctx.home, ".gjc", STATE_KEY_FILE);
}

function unsafeKey(path: string, why: string): GjcError {
  return new GjcError({
    code: "security_policy",
    message: `The gjc state key ${path} cannot be trusted: ${why}.`,
    hint: `Remove it if it is not yours; gjc makes a new one (0600). Scopes signed with the old key then show as foreign until you adopt them (gjc plugin doctor --fix --adopt).`,
    exit: ExitCode.refused,
  });
}

/** The key, or undefined when there is none yet. A key file others could read or write is refused. */
function readKey(path: string): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw unsafeKey(path, code === "ELOOP" ? "it is a symbolic link" : `it cannot be opened (${code ?? "error"})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw unsafeKey(path, "it is not a regular file");
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
    if (uid !== undefined && st.uid !== uid) throw unsafeKey(path, `it belongs to another user (uid ${st.uid})`);
    if (uid !== undefined && (st.mode & 0o077) !== 0)
      throw unsafeKey(path, `other users may read or write it (mode ${(st.mode & 0o777).toString(8)})`);
    const buf = new Uint8Array(80);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = new TextDecoder().decode(buf.subarray(0, n));
    if (!KEY_HEX.test(text)) throw unsafeKey(path, "it does not hold a gjc key");
    // Not Buffer.from(…, "hex"): its first use costs a few tenths of a millisecond, and every
    // session start reads the key.
    return Uint8Array.fromHex(text.slice(0, 64));
  } finally {
    closeSync(fd);
  }
}

/**
 * Makes the key file, whole or not at all: the key is written to a private temporary file
 * that is then hard-linked to its name. Created in place, a second gjc starting at the same
 * moment could read the file between its creation and its write, find it empty and refuse it.
 * When another gjc process links first, its key is the one used.
 */
function makeKey(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${crypto.randomUUID()}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, `${crypto.getRandomValues(new Uint8Array(32)).toHex()}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temp);
  }
}

/** The user's state key; `create` makes it (0600, in a 0700 directory) when it does not exist yet. */
export function stateKey(ctx: Context, create: boolean): Uint8Array | undefined {
  const path = stateKeyPath(ctx);
  const known = cache.get(path);
  if (known !== undefined) return known;
  let key = readKey(path);
  if (key === undefined && create) {
    makeKey(path);
    key = readKey(path);
  }
  if (key !== undefined) cache.set(path, key);
  return key;
}

/**
 * The MAC of a document's signed text for a scope: `hmac-sha256:<hex>`. The text is the exact
 * JSON the document holds (for registry.json, the bytes of its `plugins` value as written), so
 * checking a signature never re-serialises what was parsed.
 */
export function registryMac(key: Uint8Array, scope: string, signedText: string): string {
  return `hmac-sha256:${hmacSha256Hex(key, `gjc-registry-v1\n${scope}\n`, signedText)}`;
}

/** Constant-time comparison of two MAC strings. */
export function sameMac(a: unknown, b: string): boolean {
  if (typeof a !== "string" || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
