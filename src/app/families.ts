import type { FamilyAdapter } from "../store/family.ts";

/**
 * The registry of family adapters, apart from the interface they implement: adapters import
 * the interface, the engine imports this, so neither family's code loads before a verb needs it.
 * Both adapters, GJC first (a root holding both manifests is a GJC bundle, as the GJC seed routes it).
 */
export async function families(): Promise<FamilyAdapter[]> {
  const [{ gjcFamily }, { c2Family }] = await Promise.all([
    import("../install/family.ts"),
    import("../c2store/family.ts"),
  ]);
  return [gjcFamily, c2Family];
}
