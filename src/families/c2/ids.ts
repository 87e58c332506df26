/** C2 identifiers derived from names and paths (c2-notes §3.5 and §4.3). */
import { fnv1a32Hex } from "../../bundle/hash.ts";

/**
 * ASCII letters and digits lower-cased; every run of anything else becomes one `-`, never
 * leading, and a trailing `-` is dropped. `"My Plugin!"` → `"my-plugin"`.
 */
export function slug(value: string): string {
  let out = "";
  let pendingDash = false;
  for (const ch of value) {
    const c = ch.charCodeAt(0);
    const alnum = ch.length === 1 && ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122));
    if (alnum) {
      if (pendingDash && out !== "") out += "-";
      pendingDash = false;
      out += ch.toLowerCase();
    } else pendingDash = true;
  }
  return out;
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
