/** C2 identifiers derived from names and paths (c2-notes §3.5 and §4.3). */
import { fnv1a32Hex } from "../../bundle/hash.ts";

/**
 * ASCII letters and digits lower-cased; every run of anything else becomes one `-`, never
 * leading, and a trailing `-` is dropped. `"My Plugin!"` → `"my-plugin"`.
 */
export function slug(value: string): string {
  // Replaced before lower-casing, so no non-ASCII letter can lower-case into ASCII (K, the Kelvin sign).
  return value
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();
}

/** `slug(v)` cut to 52 characters, `-`, FNV-1a-32 of `v` (component ids, scaffold ids). */
export function slugHash(value: string): string {
  return `${slug(value).slice(0, 52)}-${fnv1a32Hex(value)}`;
}

/**
 * Installed bundle id: `slug(name)` (≤52, "plugin" when empty) + `-` + FNV-1a-32 of the
 * source identity (`<owner>/<repo>:<root-relative>`), so upgrades from one source keep it.
 */
export function installedId(name: string, sourceIdentity: string): string {
  return `${slug(name).slice(0, 52) || "plugin"}-${fnv1a32Hex(sourceIdentity)}`;
}
