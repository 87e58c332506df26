import { verifyFiles, type BundleCheck } from "../store/verify.ts";
import { storedFiles, type RegistryEntry } from "./registry-types.ts";

/**
 * A GJC registry entry checked by the store's verifier against its content directory; the
 * verified bytes of the `keep` files come back in `kept`.
 */
export function verifyInstalledBundle(entry: RegistryEntry, keep?: ReadonlySet<string>): BundleCheck {
  return verifyFiles(entry.pluginRoot, storedFiles(entry), { keep });
}
