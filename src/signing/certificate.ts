/**
 * OpenSSH certificates (PROTOCOL.certkeys in openssh-portable) as SSHSIG signers: the
 * signature carries a user certificate, and an allowed_signers `cert-authority` line trusts
 * the CA that signed it for the principals the line names.
 */
import { KeyFormatError, parsePublicKeyBlob, type SshPublicKey } from "./ssh-keys.ts";
import { WireFormatError, WireReader, WireWriter } from "./ssh-wire.ts";

export const SSH_CERT_TYPE_USER = 1;
/** valid_before of a certificate that never expires. */
const FOREVER = 0xffffffffffffffffn;

export interface SshCertificate {
  /** The certificate blob, as it appears in the signature. */
  blob: Uint8Array;
  /** The certified key: the one that made the signature. */
  key: SshPublicKey;
  /** The CA key that signed the certificate. */
  ca: SshPublicKey;
  certType: number;
  keyId: string;
  principals: string[];
  validAfter: bigint;
  validBefore: bigint;
  criticalOptions: string[];
  /** The bytes the CA signed (everything before the signature) and its signature blob. */
  signedPart: Uint8Array;
  signature: Uint8Array;
}

const CERT_TYPES: Record<string, string> = {
  "ssh-ed25519-cert-v01@openssh.com": "ssh-ed25519",
  "ecdsa-sha2-nistp256-cert-v01@openssh.com": "ecdsa-sha2-nistp256",
  "ssh-rsa-cert-v01@openssh.com": "ssh-rsa",
};

const uint64 = (r: WireReader) => (BigInt(r.uint32()) << 32n) | BigInt(r.uint32());

function packedStrings(bytes: Uint8Array, valuesToo: boolean): string[] {
  const r = new WireReader(bytes);
  const out: string[] = [];
  while (r.remaining > 0) {
    out.push(r.text());
    if (valuesToo) r.string();
  }
  return out;
}

export function parseCertificateBlob(blob: Uint8Array): SshCertificate {
  try {
    const r = new WireReader(blob);
    const type = r.text();
    const plain = CERT_TYPES[type];
    if (!plain) throw new KeyFormatError(`certificate type ${JSON.stringify(type)} is not supported`);
    r.string(); // nonce
    const key = new WireWriter().string(plain);
    if (plain === "ssh-ed25519") key.string(r.string());
    else if (plain === "ecdsa-sha2-nistp256") key.string(r.string()).string(r.string());
    else key.string(r.string()).string(r.string()); // e and n, as the mpints they are on the wire
    const certified = parsePublicKeyBlob(key.bytes());
    uint64(r); // serial
    const certType = r.uint32();
    const keyId = r.text();
    const principals = packedStrings(r.string(), false);
    const validAfter = uint64(r);
    const validBefore = uint64(r);
    const criticalOptions = packedStrings(r.string(), true);
    r.string(); // extensions
    r.string(); // reserved
    const ca = parsePublicKeyBlob(r.string());
    const signedPart = blob.subarray(0, blob.length - r.remaining);
    const signature = r.string();
    r.end();
    return {
      blob,
      key: certified,
      ca,
      certType,
      keyId,
      principals,
      validAfter,
      validBefore,
      criticalOptions,
      signedPart,
      signature,
    };
  } catch (error) {
    if (error instanceof KeyFormatError) throw error;
    if (error instanceof WireFormatError) throw new KeyFormatError(`malformed certificate: ${error.message}`);
    throw new KeyFormatError(`malformed certificate: ${(error as Error).message}`);
  }
}

/** Why a certificate cannot vouch for a signature at `now`, or undefined when it can. */
export function certificateProblem(cert: SshCertificate, now: Date): string | undefined {
  if (cert.certType !== SSH_CERT_TYPE_USER) return "it is not a user certificate";
  if (cert.criticalOptions.length > 0)
    return `it has critical options gjc does not apply (${cert.criticalOptions.join(", ")})`;
  const t = BigInt(Math.floor(now.getTime() / 1000));
  if (t < cert.validAfter) return `it is valid only from ${new Date(Number(cert.validAfter) * 1000).toISOString()}`;
  if (cert.validBefore !== FOREVER && t >= cert.validBefore)
    return `it expired at ${new Date(Number(cert.validBefore) * 1000).toISOString()}`;
  return undefined;
}
