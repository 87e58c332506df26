import { verifyFiles, type BundleCheck } from "../store/verify.ts";
import { storedFiles, type RegistryEntry } from "./registry-types.ts";

/** A GJC registry entry checked by the store's verifier against its content directory. */
export function verifyInstalledBundle(entry: RegistryEntry): BundleCheck {
  return verifyFiles(entry.pluginRoot, storedFiles(entry));
}
