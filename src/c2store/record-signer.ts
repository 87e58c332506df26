/** The C2 record keeps the signer in its own snake_case spelling; these map it to and from the shared shape. */
import type { BundleSigner } from "../signing/check.ts";
import type { InstalledRecord } from "./record.ts";

export type RecordSigner = NonNullable<InstalledRecord["signer"]>;

export const recordSigner = (s: BundleSigner): RecordSigner => ({
  fingerprint: s.fingerprint,
  ...(s.keyType !== undefined ? { key_type: s.keyType } : {}),
  ...(s.identity !== undefined ? { identity: s.identity } : {}),
});

export const signerOfRecord = (s: RecordSigner): BundleSigner => ({
  fingerprint: s.fingerprint,
  ...(s.key_type !== undefined ? { keyType: s.key_type } : {}),
  ...(s.identity !== undefined ? { identity: s.identity } : {}),
});
