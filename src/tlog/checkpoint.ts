/**
 * C2SP tlog-checkpoint: a signed note whose text is the origin, the tree size (decimal, no
 * leading zeros), the base64 RFC 6962 root hash, then optional non-empty extension lines.
 */
import { invalidLog } from "./errors.ts";
import type { Hash } from "./merkle.ts";
import { openNote, signNote, strictBase64, toBase64, type NoteSigner, type NoteVerifier } from "./note.ts";

export interface Checkpoint {
  origin: string;
  size: number;
  root: Hash;
  extensions: string[];
}

export function checkpointText(c: Checkpoint): string {
  return `${[c.origin, String(c.size), toBase64(c.root), ...c.extensions].join("\n")}\n`;
}

export function parseCheckpointText(text: string, what = "checkpoint"): Checkpoint {
  if (!text.endsWith("\n")) throw invalidLog(what, "its text does not end with a newline");
  const lines = text.slice(0, -1).split("\n");
  if (lines.length < 3) throw invalidLog(what, "it has fewer than three lines (origin, tree size, root hash)");
  if (lines.some((l) => l === "")) throw invalidLog(what, "it has an empty line");
  const [origin, sizeText, rootText, ...extensions] = lines;
  if (!/^(?:0|[1-9][0-9]*)$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText)))
    throw invalidLog(what, `its tree size "${sizeText}" is not a decimal number without leading zeros`);
  const root = strictBase64(rootText);
  if (root === undefined || root.length !== 32) throw invalidLog(what, "its root hash is not the base64 of 32 bytes");
  return { origin, size: Number(sizeText), root, extensions };
}

export function signCheckpoint(c: Checkpoint, signer: NoteSigner): string {
  return signNote(checkpointText(c), [signer]);
}

/** A checkpoint note opened with the log's key; its origin must be the expected one. */
export function openCheckpoint(note: string, verifier: NoteVerifier, origin: string, what = "checkpoint"): Checkpoint {
  const { text } = openNote(note, [verifier], what);
  const c = parseCheckpointText(text, what);
  if (c.origin !== origin) throw invalidLog(what, `its origin is "${c.origin}", not the log's "${origin}"`);
  return c;
}
