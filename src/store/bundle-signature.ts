import type { Context } from "../core/context.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { gjcContent } from "./bundle-digest.ts";
import {
  checkBundleSignature,
  unknownSignerWarning,
  type SignatureCheck,
  type SignaturePolicy,
} from "../signing/check.ts";
import { locateSignature } from "../signing/locate.ts";
import type { CompiledBundle } from "../families/gjc/compile-for-install.ts";
import type { Scope } from "../core/scope.ts";

/** Where a fetched bundle is and what the sources layer found beside it (install's FetchedBundle). */
export type FetchedForSignature = Parameters<typeof locateSignature>[0];

/** The signature of a compiled GJC bundle, over the integrity its installed files will have. */
export async function gjcSignature(
  ctx: Context,
  bundle: CompiledBundle,
  fetched: FetchedForSignature,
  scope: Scope,
  policy: SignaturePolicy,
): Promise<SignatureCheck> {
  const signature = locateSignature(fetched);
  if (!signature && !policy.requireSigned) return { status: "unsigned" };
  return checkBundleSignature(ctx, {
    name: bundle.name,
    integrity: gjcContent(bundle).integrity,
    signature,
    scope,
    requireSigned: policy.requireSigned,
  });
}

/** The visible warning for content signed by a key nobody vouched for. */
export function signerWarning(name: string, check: SignatureCheck): Diagnostic | undefined {
  if (check.status !== "unknown-signer" || !check.signer) return undefined;
  return {
    code: "unknown_signer",
    severity: "warning",
    path: "gjc-signature.sshsig",
    message: unknownSignerWarning(name, check.signer),
    hint: "Check the fingerprint with the publisher, then gjc signers add <identity> <key.pub>.",
  };
}
