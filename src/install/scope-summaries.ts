import type { Context } from "../core/context.ts";
import { unsafeGjcScope } from "../store/scope-path.ts";
import { registryPath } from "../families/gjc/layout.ts";
import { readListIndex } from "./list-index.ts";
import type { Scope } from "./registry-types.ts";
import type { BundleSummary } from "./summary.ts";

/** `readOnly`: the bundles come from a registry the GJC agent wrote (reference-registry.ts). */
export type ListRead =
  | { ok: true; bundles: BundleSummary[]; readOnly?: true }
  | { ok: false; path: string; problem: string; foreign?: true };

/** The summaries of a scope: from the list index when it matches registry.json, else from a full read. */
export async function readScopeSummaries(root: string, scope: Scope, ctx: Context): Promise<ListRead> {
  const path = registryPath(root);
  const unsafe = unsafeGjcScope(root, scope);
  if (unsafe !== undefined) return { ok: false, path, problem: unsafe };
  const indexed = readListIndex(root, scope, ctx);
  if (indexed !== undefined) return { ok: true, bundles: indexed };
  // The full read is loaded only when needed: the common path stays a stat and a small file.
  // It goes through the registry's own reader (bounded, no link followed, a missing file
  // beside its last good copy fails closed).
  const [{ tryReadRegistry }, { summarize }] = await Promise.all([import("./registry.ts"), import("./summary.ts")]);
  const parsed = tryReadRegistry(root, scope, ctx);
  if (!parsed.ok && parsed.reference) {
    const { readReferenceRegistry } = await import("./reference-registry.ts");
    const registry = await readReferenceRegistry(ctx, root, scope, parsed.reference);
    return { ok: true, bundles: registry.plugins.map(summarize), readOnly: true };
  }
  if (!parsed.ok)
    return { ok: false, path, problem: parsed.problem, ...(parsed.foreign ? { foreign: true as const } : {}) };
  return { ok: true, bundles: parsed.registry.plugins.map(summarize) };
}
