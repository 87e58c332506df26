/** C2 identifiers derived from names and paths (c2-notes §3.5 and §4.3). */
import { fnv1a32Hex } from "../../bundle/hash.ts";

/**
 * ASCII letters and digits lower-cased; every run of anything else becomes one `-`, never
 * leading, and a trailing `-` is dropped. `"My Plugin!"` → `"my-plugin"`.
 */
export function slug(value: string): string {
  let out = "";
  let pendingDash = false;
  // By UTF-16 unit (both halves of a surrogate pair are "anything else", as the code point is),
  // not for-of: JSC's string iterator builtin gets JIT-compiled within one short CLI run.
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (alnum) {
      if (pendingDash && out !== "") out += "-";
      pendingDash = false;
      out += String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
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
