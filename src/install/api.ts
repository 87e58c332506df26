/**
 * The install layer as a library, for hosts and the session code: read a scope's registry
 * (fail-closed on damage) and re-check an installed bundle against it.
 */
import type { Context } from "../core/context.ts";
import { scopeRoot } from "../families/gjc/layout.ts";
import { readRegistry } from "./registry.ts";
import type { Scope, ScopeRegistry } from "./registry-types.ts";

export type {
  CopiedFile,
  QuarantineRecord,
  RegistryEntry,
  RegistrySource,
  RegistrySurface,
  Scope,
  ScopeRegistry,
} from "./registry-types.ts";
export { entrySurfaces } from "./registry-types.ts";
export { verifyInstalledBundle } from "./verify-entry.ts";
export type { BundleCheck, FileProblem } from "../store/verify.ts";
export { driftRecords } from "./verify-scopes.ts";

/** The scope root and its registry; throws `registry_corrupt` (exit 3) when the registry is damaged. */
export function loadScopeRegistry(ctx: Context, scope: Scope): { root: string; registry: ScopeRegistry } {
  const root = scopeRoot(ctx, scope);
  return { root, registry: readRegistry(root, scope, ctx) };
}
