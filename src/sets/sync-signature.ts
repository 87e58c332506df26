/**
 * Signatures during sync. The content's signature is checked where it lives, beside the source
 * (a signature is not part of the digest, so the content cache and set archives do not hold
 * it); the lock's `signer` is the key the set expects, and `--frozen` holds it exactly.
 */
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "../install/registry-types.ts";
import { assertSameSigner, checkBundleSignature, type BundleSigner, type SignatureCheck } from "../signing/check.ts";
import { locateSignature } from "../signing/locate.ts";
import type { JudgedContent } from "./content.ts";
import type { InstalledBundle } from "./installed.ts";
import type { LockEntry } from "./lock-schema.ts";

export interface SyncSignaturePolicy {
  frozen?: boolean;
  /** The flag, or `requireSigned: true` in the lock. */
  requireSigned?: boolean;
  acceptSigner?: boolean;
}

/** Whether the entry's content must come from its source, where its signature is. */
export const needsSignatureCheck = (e: LockEntry, requireSigned: boolean | undefined) => e.signer !== undefined || requireSigned === true;

const installedSigner = (b: InstalledBundle | undefined): BundleSigner | undefined => {
  const s = b?.gjc?.signer ?? (b?.c2?.signer ? { fingerprint: b.c2.signer.fingerprint, keyType: b.c2.signer.key_type, identity: b.c2.signer.identity } : undefined);
  return s ? { ...s } : undefined;
};

export async function syncSignature(ctx: Context, scope: Scope, want: LockEntry, c: JudgedContent, have: InstalledBundle | undefined, o: SyncSignaturePolicy): Promise<SignatureCheck> {
  if (c.origin !== "source") {
    if (!needsSignatureCheck(want, o.requireSigned)) return { status: "unsigned" };
    throw new GjcError({
      code: "unsigned_bundle",
      message: `${want.name} must be signed${want.signer ? ` by ${want.signer}` : ""}, but its content came from the ${c.origin === "cache" ? "content cache" : "set archive"}, which holds no signature.`,
      hint: "Sync without --offline or --from, so the signature beside its source is checked.",
      details: { name: want.name, signer: want.signer ?? null },
      exit: ExitCode.refused,
    });
  }
  const signature = locateSignature({ dir: c.dir, record: c.record as { kind: string; uri?: string } });
  const check = signature ? await checkBundleSignature(ctx, { name: want.name, integrity: c.integrity, signature, scope: want.family === "c2" ? "user" : scope, requireSigned: o.requireSigned }) : await checkBundleSignature(ctx, { name: want.name, integrity: c.integrity, scope, requireSigned: o.requireSigned });
  if (want.signer !== undefined) {
    const lockSigner: BundleSigner = { fingerprint: want.signer, keyType: "" };
    // --frozen: the lock's key exactly, whoever else the user trusts.
    if (o.frozen && check.signer?.fingerprint !== want.signer) assertSameSigner(want.name, lockSigner, { status: check.status === "trusted" ? "unknown-signer" : check.status, signer: check.signer }, false);
    else assertSameSigner(want.name, lockSigner, check, o.acceptSigner);
  } else assertSameSigner(want.name, installedSigner(have), check, o.acceptSigner);
  return check;
}
