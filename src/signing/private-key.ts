/**
 * Unencrypted OpenSSH private keys (the `openssh-key-v1` container that `ssh-keygen` writes,
 * PROTOCOL.key in openssh-portable) turned into signers. An encrypted key is reported as such
 * so the caller can ask ssh-agent instead: gjc never asks for a passphrase.
 */
import { createPrivateKey, sign as cryptoSign, type KeyObject } from "node:crypto";
import { ecdsaSignatureBlob, KeyFormatError, parsePublicKeyBlob, type KeyType, type SshPublicKey } from "./ssh-keys.ts";
import { WireFormatError, WireReader, WireWriter } from "./ssh-wire.ts";

export interface SshSigner {
  publicKey: SshPublicKey;
  /** The SSH signature blob (`string algorithm, string signature`) over `data`. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

export class EncryptedKeyError extends Error {}

const MAGIC = "openssh-key-v1\0";
const ARMOR = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]*?)-----END OPENSSH PRIVATE KEY-----/;

export function looksLikePrivateKey(text: string): boolean {
  return text.includes("-----BEGIN OPENSSH PRIVATE KEY-----");
}

const b64url = (b: Uint8Array) => Buffer.from(b).toString("base64url");
const big = (b: Uint8Array) => (b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString("hex")}`));
const unbig = (n: bigint) => {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return new Uint8Array(Buffer.from(hex, "hex"));
};

export function parsePrivateKey(text: string): SshSigner {
  const m = ARMOR.exec(text);
  if (!m) throw new KeyFormatError("not an OpenSSH private key (expected -----BEGIN OPENSSH PRIVATE KEY-----)");
  const bytes = new Uint8Array(Buffer.from(m[1].replace(/\s+/g, ""), "base64"));
  try {
    if (Buffer.from(bytes.subarray(0, MAGIC.length)).toString("latin1") !== MAGIC)
      throw new KeyFormatError("not an openssh-key-v1 key");
    const r = new WireReader(bytes.subarray(MAGIC.length));
    const cipher = r.text();
    const kdf = r.text();
    r.string(); // kdf options
    const count = r.uint32();
    if (count !== 1) throw new KeyFormatError("a key file holding more than one key is not supported");
    const publicKey = parsePublicKeyBlob(r.string());
    const section = r.string();
    if (cipher !== "none" || kdf !== "none") throw new EncryptedKeyError(`the key is encrypted (${cipher})`);
    const p = new WireReader(section);
    if (p.uint32() !== p.uint32()) throw new KeyFormatError("the key's check numbers differ (corrupt key)");
    const type = p.text() as KeyType;
    if (type !== publicKey.type) throw new KeyFormatError("the private part does not match the public key");
    return { publicKey, sign: signerFor(type, p, publicKey) };
  } catch (error) {
    if (error instanceof WireFormatError) throw new KeyFormatError(`malformed private key: ${error.message}`);
    throw error;
  }
}

function signerFor(type: KeyType, p: WireReader, pub: SshPublicKey): SshSigner["sign"] {
  if (type === "ssh-ed25519") {
    const pk = p.string();
    const sk = p.string();
    const key = createPrivateKey({
      key: { kty: "OKP", crv: "Ed25519", x: b64url(pk), d: b64url(sk.subarray(0, 32)) },
      format: "jwk",
    });
    return async (data) =>
      new WireWriter()
        .string("ssh-ed25519")
        .string(new Uint8Array(cryptoSign(null, data, key)))
        .bytes();
  }
  if (type === "ecdsa-sha2-nistp256") {
    p.text();
    const q = p.string();
    const d = p.mpint();
    const padded = new Uint8Array(32);
    padded.set(d, 32 - d.length);
    const key = createPrivateKey({
      key: { kty: "EC", crv: "P-256", x: b64url(q.subarray(1, 33)), y: b64url(q.subarray(33)), d: b64url(padded) },
      format: "jwk",
    });
    return async (data) =>
      ecdsaSignatureBlob(new Uint8Array(cryptoSign("sha256", data, { key, dsaEncoding: "ieee-p1363" })));
  }
  // RSA: the wire order is n, e, d, iqmp, p, q; JWK wants the CRT exponents too.
  const [n, e, d, qi, pp, qq] = [p.mpint(), p.mpint(), p.mpint(), p.mpint(), p.mpint(), p.mpint()];
  const dp = big(d) % (big(pp) - 1n);
  const dq = big(d) % (big(qq) - 1n);
  const key: KeyObject = createPrivateKey({
    key: {
      kty: "RSA",
      n: b64url(n),
      e: b64url(e),
      d: b64url(d),
      p: b64url(pp),
      q: b64url(qq),
      dp: b64url(unbig(dp)),
      dq: b64url(unbig(dq)),
      qi: b64url(qi),
    },
    format: "jwk",
  });
  void pub;
  return async (data) =>
    new WireWriter()
      .string("rsa-sha2-512")
      .string(new Uint8Array(cryptoSign("sha512", data, key)))
      .bytes();
}
