/**
 * SSHSIG (PROTOCOL.sshsig in openssh-portable): the signature `ssh-keygen -Y sign` writes.
 * The blob is the magic `SSHSIG`, version 1, the public key, the namespace, a reserved
 * string, the hash algorithm and the signature; what the key signs is the magic, namespace,
 * reserved, hash algorithm and H(message). Armored like ssh-keygen: 70 base64 columns.
 */
import type { SshSigner } from "./private-key.ts";
import { parseCertificateBlob, type SshCertificate } from "./certificate.ts";
import {
  isCertificateType,
  KeyFormatError,
  parsePublicKeyBlob,
  verifySshSignature,
  type SshPublicKey,
} from "./ssh-keys.ts";
import { WireFormatError, WireReader, WireWriter } from "./ssh-wire.ts";

export const SIGNATURE_NAMESPACE = "gjc-plugin";
const MAGIC = "SSHSIG";
const VERSION = 1;
const BEGIN = "-----BEGIN SSH SIGNATURE-----";
const END = "-----END SSH SIGNATURE-----";
/** ssh-keygen signs with SHA-512 by default; both are valid to verify. */
const HASHES = ["sha512", "sha256"] as const;
type HashName = (typeof HASHES)[number];

export interface SshSignature {
  /** The key that signed (a certificate's certified key). */
  publicKey: SshPublicKey;
  /** Present when the signature carries an OpenSSH user certificate instead of a plain key. */
  certificate?: SshCertificate;
  namespace: string;
  hashAlgorithm: HashName;
  /** The key type's SSH signature blob. */
  signature: Uint8Array;
}

export class SignatureFormatError extends Error {}

function signedData(namespace: string, hash: HashName, message: Uint8Array): Uint8Array {
  const digest = new Uint8Array(new Bun.CryptoHasher(hash).update(message).digest());
  return new WireWriter().raw(MAGIC).string(namespace).string("").string(hash).string(digest).bytes();
}

export async function signMessage(
  signer: SshSigner,
  message: Uint8Array,
  namespace = SIGNATURE_NAMESPACE,
): Promise<SshSignature> {
  const hashAlgorithm: HashName = "sha512";
  const signature = await signer.sign(signedData(namespace, hashAlgorithm, message));
  return { publicKey: signer.publicKey, namespace, hashAlgorithm, signature };
}

/** True when the signature's own key signed `message` under the signature's namespace. */
export function signatureMatches(sig: SshSignature, message: Uint8Array): Promise<boolean> {
  return verifySshSignature(sig.publicKey, sig.signature, signedData(sig.namespace, sig.hashAlgorithm, message));
}

export function encodeSignature(sig: SshSignature): Uint8Array {
  return new WireWriter()
    .raw(MAGIC)
    .uint32(VERSION)
    .string(sig.certificate?.blob ?? sig.publicKey.blob)
    .string(sig.namespace)
    .string("")
    .string(sig.hashAlgorithm)
    .string(sig.signature)
    .bytes();
}

export function decodeSignature(blob: Uint8Array): SshSignature {
  try {
    if (Buffer.from(blob.subarray(0, MAGIC.length)).toString("latin1") !== MAGIC)
      throw new SignatureFormatError("not an SSH signature (no SSHSIG magic)");
    const r = new WireReader(blob.subarray(MAGIC.length));
    const version = r.uint32();
    if (version !== VERSION) throw new SignatureFormatError(`SSH signature version ${version} is not supported`);
    const keyBlob = r.string();
    const certificate = isCertificateType(new WireReader(keyBlob).text()) ? parseCertificateBlob(keyBlob) : undefined;
    const publicKey = certificate?.key ?? parsePublicKeyBlob(keyBlob);
    const namespace = r.text();
    r.string(); // reserved: ignored, as the format says
    const hash = r.text();
    const signature = r.string();
    r.end();
    if (namespace === "") throw new SignatureFormatError("the signature has an empty namespace");
    if (!(HASHES as readonly string[]).includes(hash))
      throw new SignatureFormatError(`hash algorithm ${JSON.stringify(hash)} is not supported`);
    return {
      publicKey,
      ...(certificate ? { certificate } : {}),
      namespace,
      hashAlgorithm: hash as HashName,
      signature,
    };
  } catch (error) {
    if (error instanceof SignatureFormatError) throw error;
    if (error instanceof WireFormatError || error instanceof KeyFormatError)
      throw new SignatureFormatError(error.message);
    throw new SignatureFormatError(`malformed SSH signature: ${(error as Error).message}`);
  }
}

export function armor(blob: Uint8Array): string {
  const b64 = Buffer.from(blob).toString("base64");
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 70) lines.push(b64.slice(i, i + 70));
  return `${BEGIN}\n${lines.join("\n")}\n${END}\n`;
}

export function dearmor(text: string): Uint8Array {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start)
    throw new SignatureFormatError("not an armored SSH signature (no BEGIN/END SSH SIGNATURE lines)");
  const body = text.slice(start + BEGIN.length, end).replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) throw new SignatureFormatError("the armored signature is not base64");
  return new Uint8Array(Buffer.from(body, "base64"));
}

export const parseArmoredSignature = (text: string): SshSignature => decodeSignature(dearmor(text));
export const armorSignature = (sig: SshSignature): string => armor(encodeSignature(sig));
