import type { Context } from "../core/context.ts";
import { unsafeGjcScope } from "../store/scope-path.ts";
import { registryPath } from "../families/gjc/layout.ts";
import { readListIndex } from "./list-index.ts";
import { readRegistryFile } from "./registry-file.ts";
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
  // The registry's file as its reader takes it (bounded, no link followed, a missing file
  // beside its last good copy fails closed). No registry is an empty scope, the usual case
  // of a project; only a registry to parse loads the full reader.
  const file = readRegistryFile(root);
  if (!file.ok) return { ok: false, path, problem: file.problem };
  if (file.text === undefined) return { ok: true, bundles: [] };
  const [{ registryFromText }, { summarize }] = await Promise.all([import("./registry.ts"), import("./summary.ts")]);
  const parsed = registryFromText(file.text, root, scope, ctx);
  if (!parsed.ok && parsed.reference) {
    const { readReferenceRegistry } = await import("./reference-registry.ts");
    const registry = await readReferenceRegistry(ctx, root, scope, parsed.reference);
    return { ok: true, bundles: registry.plugins.map(summarize), readOnly: true };
  }
  if (!parsed.ok)
    return { ok: false, path, problem: parsed.problem, ...(parsed.foreign ? { foreign: true as const } : {}) };
  return { ok: true, bundles: parsed.registry.plugins.map(summarize) };
}
