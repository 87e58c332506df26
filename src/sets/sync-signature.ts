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
import type { LockEntry } from "../store/plugins-lock-schema.ts";
import { signerOfRecord } from "../c2store/record-signer.ts";

export interface SyncSignaturePolicy {
  frozen?: boolean;
  /** The flag, or `requireSigned: true` in the lock. */
  requireSigned?: boolean;
  acceptSigner?: boolean;
  /** The lock is gjc's own record (rollback, journal recovery), not a set to verify. */
  recorded?: boolean;
}

/** Whether the entry's content must come from its source, where its signature is. */
export const needsSignatureCheck = (e: LockEntry, requireSigned: boolean | undefined) =>
  e.signer !== undefined || requireSigned === true;

const installedSigner = (b: InstalledBundle | undefined): BundleSigner | undefined => {
  if (b?.gjc?.signer) return { ...b.gjc.signer };
  return b?.c2?.signer ? signerOfRecord(b.c2.signer) : undefined;
};

export async function syncSignature(
  ctx: Context,
  scope: Scope,
  want: LockEntry,
  c: JudgedContent,
  have: InstalledBundle | undefined,
  o: SyncSignaturePolicy,
): Promise<SignatureCheck> {
  // Rollback and interrupted-change recovery put back content gjc itself recorded (history,
  // journal): its signer was checked when it was installed and is kept as recorded.
  if (o.recorded) {
    const same = installedSigner(have);
    return want.signer === undefined
      ? { status: "unsigned" }
      : { status: "unknown-signer", signer: same?.fingerprint === want.signer ? same : { fingerprint: want.signer } };
  }
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
  const signature = locateSignature({
    dir: c.dir,
    record: c.record as { kind: string; uri?: string },
    signature: c.signature,
  });
  const check = signature
    ? await checkBundleSignature(ctx, {
        name: want.name,
        integrity: c.integrity,
        signature,
        scope: want.family === "c2" ? "user" : scope,
        requireSigned: o.requireSigned,
      })
    : await checkBundleSignature(ctx, {
        name: want.name,
        integrity: c.integrity,
        scope,
        requireSigned: o.requireSigned,
      });
  if (want.signer !== undefined) {
    const lockSigner: BundleSigner = { fingerprint: want.signer };
    // --frozen: the lock's key exactly, whoever else the user trusts.
    if (o.frozen && check.signer?.fingerprint !== want.signer)
      assertSameSigner(
        want.name,
        lockSigner,
        { status: check.status === "trusted" ? "unknown-signer" : check.status, signer: check.signer },
        false,
      );
    else assertSameSigner(want.name, lockSigner, check, o.acceptSigner);
  } else assertSameSigner(want.name, installedSigner(have), check, o.acceptSigner);
  return check;
}
