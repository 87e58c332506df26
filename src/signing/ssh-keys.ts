/**
 * OpenSSH public keys: the key blob (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709), the one-line
 * `type base64 comment` form of `.pub` files and allowed_signers, the `SHA256:<base64>`
 * fingerprint `ssh-keygen -l` prints, and checking an SSH signature blob made by such a key.
 */
import { WireFormatError, WireReader, WireWriter } from "./ssh-wire.ts";

/*
 * Verification uses WebCrypto and Bun's hasher, never node:crypto: importing node:crypto costs
 * tens of milliseconds of start-up, which every signed install would pay. Only signing
 * (private-key.ts) loads it.
 */

export type KeyType = "ssh-ed25519" | "ecdsa-sha2-nistp256" | "ssh-rsa";
export const SUPPORTED_KEY_TYPES: readonly KeyType[] = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa"];

export interface SshPublicKey {
  type: KeyType;
  /** The wire blob, exactly as it appears in a .pub file and in a signature. */
  blob: Uint8Array;
  /** The key as a JWK (what WebCrypto and node:crypto both import). */
  jwk: KeyJwk;
}

/** The public JWK members of the three key types. */
export interface KeyJwk {
  kty: "OKP" | "EC" | "RSA";
  crv?: "Ed25519" | "P-256";
  x?: string;
  y?: string;
  n?: string;
  e?: string;
}

export class KeyFormatError extends Error {}

const b64url = (b: Uint8Array) => Buffer.from(b).toString("base64url");

/** `SHA256:<unpadded base64>` of the blob, as `ssh-keygen -l` prints it. */
export function fingerprint(blob: Uint8Array): string {
  return `SHA256:${new Bun.CryptoHasher("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

/** The one-line OpenSSH form, `type base64`. */
export function publicKeyLine(k: SshPublicKey): string {
  return `${k.type} ${Buffer.from(k.blob).toString("base64")}`;
}

export function isCertificateType(type: string): boolean {
  return type.endsWith("-cert-v01@openssh.com");
}

/** Decodes a public key blob into its type and JWK. */
export function parsePublicKeyBlob(blob: Uint8Array): SshPublicKey {
  try {
    const r = new WireReader(blob);
    const type = r.text();
    if (isCertificateType(type)) throw new KeyFormatError(`${type} is a certificate, not a plain public key`);
    if (type.startsWith("sk-")) throw new KeyFormatError(`security-key signatures (${type}) are not supported`);
    if (type === "ssh-ed25519") {
      const pk = r.string();
      r.end();
      if (pk.length !== 32) throw new KeyFormatError("an Ed25519 key must be 32 bytes");
      return { type, blob, jwk: { kty: "OKP", crv: "Ed25519", x: b64url(pk) } };
    }
    if (type === "ecdsa-sha2-nistp256") {
      const curve = r.text();
      const q = r.string();
      r.end();
      if (curve !== "nistp256" || q.length !== 65 || q[0] !== 4)
        throw new KeyFormatError("not an uncompressed P-256 point");
      return { type, blob, jwk: { kty: "EC", crv: "P-256", x: b64url(q.subarray(1, 33)), y: b64url(q.subarray(33)) } };
    }
    if (type === "ssh-rsa") {
      const e = r.mpint();
      const n = r.mpint();
      r.end();
      if (n.length * 8 < 2048) throw new KeyFormatError("RSA keys shorter than 2048 bits are refused");
      return { type, blob, jwk: { kty: "RSA", n: b64url(n), e: b64url(e) } };
    }
    throw new KeyFormatError(
      `key type ${JSON.stringify(type)} is not supported (use ${SUPPORTED_KEY_TYPES.join(", ")})`,
    );
  } catch (error) {
    if (error instanceof KeyFormatError) throw error;
    if (error instanceof WireFormatError) throw new KeyFormatError(`malformed key: ${error.message}`);
    throw new KeyFormatError(`malformed key: ${(error as Error).message}`);
  }
}

/** Parses `type base64 [comment]` (a .pub file's line). */
export function parsePublicKeyLine(line: string): { key: SshPublicKey; comment: string } {
  const m = /^\s*(\S+)\s+([A-Za-z0-9+/]+={0,2})(?:\s+(.*?))?\s*$/.exec(line);
  if (!m) throw new KeyFormatError("expected an OpenSSH public key: <type> <base64> [comment]");
  const blob = new Uint8Array(Buffer.from(m[2], "base64"));
  const key = parsePublicKeyBlob(blob);
  if (key.type !== m[1]) throw new KeyFormatError(`the key says it is ${key.type} but the line says ${m[1]}`);
  return { key, comment: m[3] ?? "" };
}

export function sameKey(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0;
}

type ImportAlgorithm = Parameters<typeof crypto.subtle.importKey>[2];
const importFor = (key: SshPublicKey, algorithm: ImportAlgorithm) =>
  crypto.subtle.importKey(
    "jwk",
    key.jwk as unknown as Parameters<typeof crypto.subtle.importKey>[1] & { kty: string },
    algorithm,
    false,
    ["verify"],
  );
/** WebCrypto's typing wants an ArrayBuffer-backed view; every view here is one. */
const view = (b: Uint8Array) => b as Uint8Array<ArrayBuffer>;

/**
 * Checks an SSH signature blob (`string algorithm, string signature`) over `data`. The
 * algorithm must belong to the key's type; for RSA only the SHA-2 variants are accepted,
 * never the SHA-1 `ssh-rsa` signature.
 */
export async function verifySshSignature(
  key: SshPublicKey,
  signatureBlob: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  try {
    const r = new WireReader(signatureBlob);
    const alg = r.text();
    const sig = r.string();
    r.end();
    switch (key.type) {
      case "ssh-ed25519":
        return (
          alg === "ssh-ed25519" &&
          sig.length === 64 &&
          (await crypto.subtle.verify("Ed25519", await importFor(key, { name: "Ed25519" }), view(sig), view(data)))
        );
      case "ecdsa-sha2-nistp256": {
        if (alg !== "ecdsa-sha2-nistp256") return false;
        const inner = new WireReader(sig);
        const rr = inner.mpint();
        const ss = inner.mpint();
        inner.end();
        if (rr.length > 32 || ss.length > 32) return false;
        const p1363 = new Uint8Array(64);
        p1363.set(rr, 32 - rr.length);
        p1363.set(ss, 64 - ss.length);
        const k = await importFor(key, { name: "ECDSA", namedCurve: "P-256" });
        return await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, k, p1363, view(data));
      }
      case "ssh-rsa": {
        const hash = alg === "rsa-sha2-512" ? "SHA-512" : alg === "rsa-sha2-256" ? "SHA-256" : undefined;
        if (!hash) return false;
        return await crypto.subtle.verify(
          "RSASSA-PKCS1-v1_5",
          await importFor(key, { name: "RSASSA-PKCS1-v1_5", hash }),
          view(sig),
          view(data),
        );
      }
    }
  } catch {
    return false;
  }
}

/** The SSH signature blob of an ECDSA signature given as r‖s (IEEE P1363). */
export function ecdsaSignatureBlob(p1363: Uint8Array): Uint8Array {
  const inner = new WireWriter().mpint(p1363.subarray(0, 32)).mpint(p1363.subarray(32)).bytes();
  return new WireWriter().string("ecdsa-sha2-nistp256").string(inner).bytes();
}
