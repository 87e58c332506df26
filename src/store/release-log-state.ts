/**
 * What this user's gjc believes about release logs, in `~/.gjc/release-logs.json`: per log
 * (origin) the newest tree head it verified, and per installed release (digest) the proof
 * that the release is in its log, which the lock copies so `sync --offline` needs no log.
 *
 * Signed like registry.json (src/store/state-mac.ts: the user's state key, HMAC-SHA256 over
 * the exact bytes of the `logs` value, domain "release-logs"). A file without a valid MAC was
 * not written by gjc for this user: it is never believed or overwritten (`log_state_foreign`),
 * because a forged head would let a rewritten log pass.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { parseBoundedJson } from "../bundle/json.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import type { Context } from "../core/context.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { registryMac, sameMac, stateKey } from "./state-mac.ts";
import type { BelievedHead } from "../tlog/log-dir.ts";

export const RELEASE_LOG_STATE_FILE = "release-logs.json";
const MAC_DOMAIN = "release-logs";
const MAX_STATE_BYTES = 16 * 1024 * 1024;

/** The proof that one release is in its log, at a checkpoint signed by the log's key. */
export interface LogEvidence {
  origin: string;
  /** The log's note verifier key. */
  key: string;
  /** The signed checkpoint note the proof is against. */
  checkpoint: string;
  /** Leaf index of the release. */
  index: number;
  /** The release line (name, version, digest, signer) that is the leaf. */
  leaf: string;
  /** Base64 hashes of the RFC 6962 audit path. */
  proof: string[];
}

export interface ReleaseLogState {
  heads: Record<string, BelievedHead & { verifiedAt: string }>;
  /** By bundle digest (`sha256:<hex>`). */
  releases: Record<string, LogEvidence>;
  /** Source identity -> the origin of the log it came with: that source may not drop its log later. */
  sources: Record<string, string>;
}

export function releaseLogStatePath(ctx: Context): string {
  return join(ctx.home, ".gjc", RELEASE_LOG_STATE_FILE);
}

const HEAD = '{"version":1,"logs":';
const TAIL = /^,"mac":"hmac-sha256:[0-9a-f]{64}"\}\n$/;
const TAIL_LENGTH = ',"mac":"hmac-sha256:'.length + 64 + '"}\n'.length;

function foreign(path: string, problem: string): GjcError {
  return new GjcError({
    code: "log_state_foreign",
    message: `The remembered release-log checkpoints ${path} were not written by gjc for you: ${problem}. Nothing is installed, upgraded or synced until this is resolved (which sources came with a log is kept there too).`,
    hint: `If you did not edit it, someone may be trying to make a rewritten log pass: find out who wrote it. Removing the file makes gjc forget every log it has seen (the next checkpoint of each is believed on first use).`,
    details: { path, problem },
    exit: ExitCode.refused,
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The state, empty when there is none; a damaged or foreign file is refused, never repaired. */
export function readReleaseLogState(ctx: Context): ReleaseLogState {
  const path = releaseLogStatePath(ctx);
  if (!existsSync(path)) return { heads: {}, releases: {}, sources: {} };
  let text: string;
  try {
    text = new TextDecoder().decode(readRegularFile(path, MAX_STATE_BYTES, path).bytes);
  } catch (error) {
    if (isGjcError(error) && error.code === "missing_file") return { heads: {}, releases: {}, sources: {} };
    throw foreign(path, isGjcError(error) ? error.message.replace(/\.$/, "") : "it cannot be read");
  }
  if (!text.startsWith(HEAD) || !TAIL.test(text.slice(-TAIL_LENGTH)))
    throw foreign(path, "it is not laid out as gjc writes it (it was edited or reformatted)");
  const signed = text.slice(HEAD.length, text.length - TAIL_LENGTH);
  let key: Uint8Array | undefined;
  try {
    key = stateKey(ctx, false);
  } catch (error) {
    throw foreign(path, isGjcError(error) ? error.message : "the state key cannot be read");
  }
  const mac = text.slice(text.length - TAIL_LENGTH + ',"mac":"'.length, -3);
  if (key === undefined || !sameMac(mac, registryMac(key, MAC_DOMAIN, signed)))
    throw foreign(path, "its signature is not this user's (it was written elsewhere, by another user, or edited)");
  let value: unknown;
  try {
    value = parseBoundedJson(signed);
  } catch {
    throw foreign(path, "it is not valid JSON");
  }
  if (
    !isObject(value) ||
    !isObject(value.heads) ||
    !isObject(value.releases) ||
    (value.sources !== undefined && !isObject(value.sources))
  )
    throw foreign(path, "it does not hold heads and releases");
  return { heads: value.heads, releases: value.releases, sources: value.sources ?? {} } as unknown as ReleaseLogState;
}

export function writeReleaseLogState(ctx: Context, state: ReleaseLogState): void {
  const path = releaseLogStatePath(ctx);
  const key = stateKey(ctx, true) as Uint8Array;
  const signed = JSON.stringify(state);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomic(path, `${HEAD}${signed},"mac":"${registryMac(key, MAC_DOMAIN, signed)}"}\n`, { mode: 0o600 });
}

/**
 * Remembers a verified head (only when it is newer than the one held: every head is checked
 * to extend the held one before it gets here) and the evidence of the releases installed.
 */
export function rememberVerified(
  ctx: Context,
  heads: readonly BelievedHead[],
  evidence: readonly { digest: string; evidence: LogEvidence }[],
  source?: { identity: string; origin: string },
): void {
  if (heads.length === 0 && evidence.length === 0) return;
  const state = readReleaseLogState(ctx);
  if (source !== undefined) state.sources[source.identity] = source.origin;
  for (const head of heads) {
    const held = state.heads[head.origin];
    if (held === undefined || held.size < head.size)
      state.heads[head.origin] = { ...head, verifiedAt: ctx.now().toISOString() };
  }
  for (const e of evidence) state.releases[e.digest] = e.evidence;
  writeReleaseLogState(ctx, state);
}
