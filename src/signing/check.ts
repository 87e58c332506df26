/**
 * What a bundle's signature says about who published it, judged against the publishers the
 * user (and, for a project's bundles, the project) trusts and the keys the user revoked.
 *
 * The signed message is the bundle's digest line, `sha256:<hex>` and a newline: the same
 * integrity the lock records (src/sets/integrity.ts), so `gjc plugin digest` prints it.
 */
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import type { Code } from "../core/codes.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { judgeSigner } from "./allowed-signers.ts";
import { loadSigners, revokedFingerprints, type SignersScope } from "./signer-files.ts";
import { fingerprint, verifySshSignature } from "./ssh-keys.ts";
import {
  parseArmoredSignature,
  SIGNATURE_NAMESPACE,
  signatureMatches,
  SignatureFormatError,
  type SshSignature,
} from "./sshsig.ts";

/** The publisher a bundle was signed by, as records keep it; `identity` only when the key is a trusted publisher's. */
export interface BundleSigner {
  fingerprint: string;
  /** Absent when only the fingerprint is known (a rollback to content the lock history names). */
  keyType?: string;
  identity?: string;
}

export type SignatureStatus = "unsigned" | "trusted" | "unknown-signer";

export interface SignatureCheck {
  status: SignatureStatus;
  signer?: BundleSigner;
}

/** What the caller asks of signatures: refuse unsigned content; accept a changed signer. */
export interface SignaturePolicy {
  requireSigned?: boolean;
  acceptSigner?: boolean;
}

export const digestMessage = (integrity: string): Uint8Array => new TextEncoder().encode(`${integrity}\n`);

export interface SignedBundle {
  name: string;
  integrity: string;
  /** The armored signature, absent for an unsigned bundle. */
  signature?: { text: string; label: string };
  /** Where the bundle goes: a project's publishers count only for its project scope. */
  scope: SignersScope;
  requireSigned?: boolean;
}

const refused = (code: Code, message: string, hint: string, details?: unknown) =>
  new GjcError({ code, message, hint, details, exit: ExitCode.refused });

function unsignedBundle(name: string): GjcError {
  return refused(
    "unsigned_bundle",
    `${name} is not signed, and signed bundles are required (--require-signed, or requireSigned: true in the lock).`,
    "Ask the publisher for a signed release (gjc plugin sign), or drop the requirement.",
    { name },
  );
}

function parseSignature(b: Pick<SignedBundle, "name" | "signature">): SshSignature {
  try {
    return parseArmoredSignature(b.signature!.text);
  } catch (error) {
    if (!(error instanceof SignatureFormatError)) throw error;
    throw refused(
      "signature_invalid",
      `The signature ${b.signature!.label} of ${b.name} cannot be read: ${error.message}.`,
      "Sign the bundle again with gjc plugin sign (or ssh-keygen -Y sign -n gjc-plugin).",
      { name: b.name },
    );
  }
}

/**
 * The fingerprint of the key a signature says made it (a certificate's certified key), before
 * the signature is checked: what a release log's line is compared with. Only worth believing
 * once checkBundleSignature has verified the same signature, which every install does before
 * it writes anything.
 */
export function claimedSigner(name: string, signature: { text: string; label: string }): string {
  return fingerprint(parseSignature({ name, signature }).publicKey.blob);
}

export async function checkBundleSignature(ctx: Context, b: SignedBundle): Promise<SignatureCheck> {
  if (!b.signature) {
    if (b.requireSigned) throw unsignedBundle(b.name);
    return { status: "unsigned" };
  }
  const sig = parseSignature(b);
  const fp = fingerprint(sig.publicKey.blob);
  const details = { name: b.name, fingerprint: fp, integrity: b.integrity };
  if (sig.namespace !== SIGNATURE_NAMESPACE) {
    throw refused(
      "signature_invalid",
      `The signature of ${b.name} was made for the namespace "${sig.namespace}", not "${SIGNATURE_NAMESPACE}".`,
      `Sign it with gjc plugin sign, or ssh-keygen -Y sign -n ${SIGNATURE_NAMESPACE}.`,
      details,
    );
  }
  if (!(await signatureMatches(sig, digestMessage(b.integrity)))) {
    throw refused(
      "signature_invalid",
      `The signature of ${b.name} (key ${fp}) does not match its content (${b.integrity}): a file changed after it was signed, or the signature belongs to something else.`,
      "Do not install it; ask the publisher for a correctly signed release.",
      details,
    );
  }
  if (
    sig.certificate &&
    !(await verifySshSignature(sig.certificate.ca, sig.certificate.signature, sig.certificate.signedPart))
  ) {
    throw refused(
      "signature_invalid",
      `The certificate in the signature of ${b.name} is not signed by the CA it names (${fingerprint(sig.certificate.ca.blob)}).`,
      "Ask the publisher for a signature made with a valid certificate.",
      details,
    );
  }
  const revoked = revokedFingerprints(ctx);
  if (sig.certificate && revoked.has(fingerprint(sig.certificate.ca.blob))) {
    throw refused(
      "signer_revoked",
      `${b.name} is signed with a certificate from the CA ${fingerprint(sig.certificate.ca.blob)}, a key you revoked.`,
      "Do not install it. If the revocation was a mistake, remove the key's line from the revoked_signers file beside your allowed_signers.",
      details,
    );
  }
  if (revoked.has(fp)) {
    throw refused(
      "signer_revoked",
      `${b.name} is signed by ${fp}, a key you revoked.`,
      "Do not install it. If the revocation was a mistake, remove the key's line from the revoked_signers file beside your allowed_signers.",
      details,
    );
  }
  const scopes: SignersScope[] = b.scope === "project" ? ["user", "project"] : ["user"];
  let restriction: string | undefined;
  for (const scope of scopes) {
    const loaded = loadSigners(ctx, scope);
    const verdict = judgeSigner(loaded.signers, sig.publicKey, sig.namespace, b.name, ctx.now(), sig.certificate);
    if (verdict.kind === "allowed")
      return {
        status: "trusted",
        signer: { fingerprint: fp, keyType: sig.publicKey.type, identity: verdict.identity },
      };
    if (verdict.kind === "restricted") restriction ??= `${loaded.path}: ${verdict.reason}`;
  }
  if (restriction !== undefined) {
    throw refused(
      "signer_not_allowed",
      `${b.name} is signed by ${fp}, but ${restriction}.`,
      "Sign with a key that may publish it, or change that line of allowed_signers (gjc signers add).",
      details,
    );
  }
  return { status: "unknown-signer", signer: { fingerprint: fp, keyType: sig.publicKey.type } };
}

/**
 * Trust on first use: once a bundle was installed signed by a key, a later content must be
 * signed by the same key, unless the new key is a trusted publisher's or the user accepts it.
 */
export function assertSameSigner(
  name: string,
  previous: BundleSigner | undefined,
  now: SignatureCheck,
  acceptSigner: boolean | undefined,
): void {
  if (!previous || acceptSigner || now.status === "trusted") return;
  if (now.signer?.fingerprint === previous.fingerprint) return;
  const was = `${previous.fingerprint}${previous.identity ? ` (${previous.identity})` : ""}`;
  const is = now.signer ? now.signer.fingerprint : "no signature";
  throw refused(
    "signer_changed",
    `${name} was signed by ${was}; this content is ${now.signer ? `signed by ${is}` : "not signed"}.`,
    `If the publisher really changed keys, pass --accept-signer, or trust the new key with gjc signers add <identity> <key>.`,
    { name, previous: previous.fingerprint, current: now.signer?.fingerprint ?? null },
  );
}

/** A visible line for a bundle signed by a key nobody vouched for. */
export function unknownSignerWarning(name: string, signer: BundleSigner): string {
  return `${name} is signed by ${signer.fingerprint}, a key not in your allowed_signers; it is remembered, and a release signed by another key will be refused (gjc signers add <identity> <key> to trust it).`;
}
