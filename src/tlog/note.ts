/**
 * C2SP signed-note with Ed25519 note keys (signature type 0x01).
 *
 *   verifier key   <name>+<8 hex key id>+<base64(0x01 ‖ 32-byte public key)>
 *   signer key     PRIVATE+KEY+<name>+<8 hex key id>+<base64(0x01 ‖ 32-byte seed)>
 *   key id         first 4 bytes (big-endian) of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)
 *   signed note    text (ending in LF), an empty line, then one or more lines
 *                  "— <name> <base64(key id ‖ signature)>" each ending in LF
 *
 * The key file formats are those of Go's golang.org/x/mod/sumdb/note, so keys made with either
 * tool work in the other. Parsing is strict: anything not exactly in the format is refused,
 * never repaired.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { sha256Bytes } from "../bundle/hash.ts";
import { invalidLog, logSignatureInvalid } from "./errors.ts";

const ED25519 = 0x01;
const EM_DASH = "\u2014";
/** The spec asks verifiers to accept at least 16; more than this is not a note gjc reads. */
const MAX_SIGNATURES = 100;
const SIGNER_PREFIX = "PRIVATE+KEY+";

export interface NoteVerifier {
  name: string;
  keyId: number;
  publicKey: Uint8Array;
  /** The verifier key text. */
  text: string;
}

export interface NoteSigner extends NoteVerifier {
  privateKey: KeyObject;
}

export interface NoteSignature {
  name: string;
  keyId: number;
  signature: Uint8Array;
}

/** Key names: non-empty, no Unicode space, no "+". */
export function validKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+\u0000-\u001f\u007f]/u.test(name);
}

export function keyId(name: string, publicKey: Uint8Array): number {
  const enc = new TextEncoder().encode(`${name}\n`);
  const buf = new Uint8Array(enc.length + 1 + publicKey.length);
  buf.set(enc);
  buf[enc.length] = ED25519;
  buf.set(publicKey, enc.length + 1);
  const h = sha256Bytes(buf);
  return ((h[0] << 24) | (h[1] << 16) | (h[2] << 8) | h[3]) >>> 0;
}

const hex8 = (id: number) => id.toString(16).padStart(8, "0");

/** Standard base64 with padding, decoded only when it re-encodes to exactly the same text. */
export function strictBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const bytes = new Uint8Array(Buffer.from(text, "base64"));
  return Buffer.from(bytes).toString("base64") === text ? bytes : undefined;
}

export const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

function publicKeyObject(raw: Uint8Array): KeyObject {
  return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: b64url(raw) }, format: "jwk" });
}

/** A new Ed25519 note key named `name`. */
export function generateSigner(name: string): NoteSigner {
  if (!validKeyName(name))
    throw invalidLog("key name", `"${name}" is empty or holds a space, a control character or "+"`);
  const { privateKey } = generateKeyPairSync("ed25519");
  return signerFromPrivate(name, privateKey);
}

function signerFromPrivate(name: string, privateKey: KeyObject): NoteSigner {
  const jwk = privateKey.export({ format: "jwk" }) as { x: string };
  const publicKey = new Uint8Array(Buffer.from(jwk.x, "base64url"));
  const id = keyId(name, publicKey);
  return { name, keyId: id, publicKey, text: verifierText(name, id, publicKey), privateKey };
}

function verifierText(name: string, id: number, publicKey: Uint8Array): string {
  return `${name}+${hex8(id)}+${toBase64(Uint8Array.of(ED25519, ...publicKey))}`;
}

/** The signer key file's text (one line). */
export function signerKeyText(signer: NoteSigner): string {
  const jwk = signer.privateKey.export({ format: "jwk" }) as { d: string };
  const seed = new Uint8Array(Buffer.from(jwk.d, "base64url"));
  return `${SIGNER_PREFIX}${signer.name}+${hex8(signer.keyId)}+${toBase64(Uint8Array.of(ED25519, ...seed))}`;
}

/** `<name>+<id>+<key>` parts, the id checked against the key. */
function keyParts(text: string, what: string, size: number): { name: string; id: number; key: Uint8Array } {
  // The name holds no "+", the base64 key may: split at the first two.
  const first = text.indexOf("+");
  const second = first < 0 ? -1 : text.indexOf("+", first + 1);
  if (second < 0) throw invalidLog(what, "it is not <name>+<key id>+<base64 key>");
  const [name, idHex, b64] = [text.slice(0, first), text.slice(first + 1, second), text.slice(second + 1)];
  if (!validKeyName(name)) throw invalidLog(what, "its key name is empty or holds a space or control character");
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw invalidLog(what, "its key id is not 8 lower-case hexadecimal digits");
  const raw = strictBase64(b64);
  if (raw === undefined) throw invalidLog(what, "its key is not standard base64");
  if (raw.length !== 1 + size || raw[0] !== ED25519)
    throw invalidLog(what, "it is not an Ed25519 note key (type 0x01, 32 bytes)");
  return { name, id: Number.parseInt(idHex, 16), key: raw.slice(1) };
}

export function parseVerifier(text: string, what = "verifier key"): NoteVerifier {
  const { name, id, key } = keyParts(text, what, 32);
  if (keyId(name, key) !== id) throw invalidLog(what, "its key id does not match its name and key");
  try {
    publicKeyObject(key);
  } catch {
    throw invalidLog(what, "its public key is not a valid Ed25519 point");
  }
  return { name, keyId: id, publicKey: key, text };
}

export function parseSigner(text: string, what = "signer key"): NoteSigner {
  if (!text.startsWith(SIGNER_PREFIX)) throw invalidLog(what, `it does not start with ${SIGNER_PREFIX}`);
  const { name, id, key: seed } = keyParts(text.slice(SIGNER_PREFIX.length), what, 32);
  // PKCS#8 for Ed25519 is a fixed 16-byte prefix and the 32-byte seed (RFC 8410).
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  const signer = signerFromPrivate(name, createPrivateKey({ key: der, format: "der", type: "pkcs8" }));
  if (signer.keyId !== id) throw invalidLog(what, "its key id does not match its name and key");
  return signer;
}

/** Note text: valid UTF-8 already decoded, no control characters but LF, ending in LF. */
function textProblem(text: string): string | undefined {
  if (!text.endsWith("\n")) return "it does not end with a newline";
  if (/[\u0000-\u0009\u000b-\u001f]/.test(text)) return "it holds a control character other than newline";
  return undefined;
}

/** The signed note of `text` with one signature line per signer. */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  const problem = textProblem(text);
  if (problem !== undefined) throw invalidLog("note text", problem);
  let out = `${text}\n`;
  for (const s of signers) {
    const sig = new Uint8Array(sign(null, Buffer.from(text), s.privateKey));
    const idBytes = Uint8Array.of(s.keyId >>> 24, (s.keyId >>> 16) & 0xff, (s.keyId >>> 8) & 0xff, s.keyId & 0xff);
    out += `${EM_DASH} ${s.name} ${toBase64(Uint8Array.of(...idBytes, ...sig))}\n`;
  }
  return out;
}

/** Splits a signed note into its text and signatures; refuses anything not exactly in the format. */
export function parseNote(note: string, what = "note"): { text: string; signatures: NoteSignature[] } {
  if (/[\u0000-\u0009\u000b-\u001f]/.test(note))
    throw invalidLog(what, "it holds a control character other than newline");
  const split = note.lastIndexOf("\n\n");
  if (split < 0) throw invalidLog(what, "it has no empty line before its signatures");
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (!block.endsWith("\n")) throw invalidLog(what, "its last signature line does not end with a newline");
  const lines = block.slice(0, -1).split("\n");
  if (lines.length > MAX_SIGNATURES) throw invalidLog(what, `it has more than ${MAX_SIGNATURES} signatures`);
  const signatures = lines.map((line, i) => {
    const m = /^\u2014 ([^ ]+) ([^ ]+)$/u.exec(line);
    if (!m) throw invalidLog(what, `signature line ${i + 1} is not "— <key name> <base64 signature>"`);
    const raw = strictBase64(m[2]);
    if (!validKeyName(m[1]) || raw === undefined || raw.length < 5)
      throw invalidLog(what, `signature line ${i + 1} has a bad key name or signature`);
    return {
      name: m[1],
      keyId: ((raw[0] << 24) | (raw[1] << 16) | (raw[2] << 8) | raw[3]) >>> 0,
      signature: raw.slice(4),
    };
  });
  return { text, signatures };
}

/**
 * The note's text once a known key's signature on it verifies. Signatures by unknown keys are
 * ignored; one by a known key that fails rejects the whole note; at least one must verify.
 */
export function openNote(
  note: string,
  verifiers: readonly NoteVerifier[],
  what = "note",
): { text: string; verifiedBy: NoteVerifier[] } {
  const { text, signatures } = parseNote(note, what);
  const verifiedBy: NoteVerifier[] = [];
  for (const s of signatures) {
    const v = verifiers.find((k) => k.name === s.name && k.keyId === s.keyId);
    if (!v) continue;
    const ok = s.signature.length === 64 && verify(null, Buffer.from(text), publicKeyObject(v.publicKey), s.signature);
    if (!ok) throw logSignatureInvalid(what, `the signature by ${v.name} does not verify`);
    if (!verifiedBy.includes(v)) verifiedBy.push(v);
  }
  if (verifiedBy.length === 0)
    throw logSignatureInvalid(
      what,
      `it carries no signature by ${verifiers.map((v) => v.name).join(", ") || "a known key"}`,
    );
  return { text, verifiedBy };
}
