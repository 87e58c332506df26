import { gjcTrustedBase, linkOnScopePath } from "../store/scope-path.ts";
import { statSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import { INDEX_FILE, MAX_REGISTRY_BYTES, registryPath } from "./layout.ts";
import type { Scope } from "./registry-types.ts";
import type { BundleSummary } from "./summary.ts";

/** Bumped whenever BundleSummary changes shape, so an older index is simply not used. */
const INDEX_FORMAT = 1;

interface ListIndex {
  format: number;
  scope: Scope;
  /** The registry.json these summaries were made from: inode, size and change time (see below). */
  registryStamp: string;
  bundles: BundleSummary[];
}

/**
 * Identifies one version of registry.json without reading it: every write (ours is a rename of
 * a new inode) and every edit in place changes the inode or the change time, and the change
 * time cannot be set back by a user (unlike the modification time).
 */
function stampOf(path: string): string | undefined {
  try {
    const st = statSync(path, { bigint: true });
    return `${st.ino}:${st.size}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * A derived, disposable index for `gjc plugin list`: the summaries of the registry we just
 * committed, bound to that registry.json by its stamp. List stats registry.json instead of
 * parsing and checking it entry by entry (50 bundles are about a megabyte); any difference (a
 * crash between the two writes, a hand edit, a restored copy) makes list fall back to the full,
 * fail-closed read. Nothing else ever reads the index.
 */
export function writeListIndex(root: string, scope: Scope, bundles: BundleSummary[]): void {
  const stamp = stampOf(registryPath(root));
  if (stamp === undefined) return;
  const index: ListIndex = { format: INDEX_FORMAT, scope, registryStamp: stamp, bundles };
  writeFileAtomic(join(root, INDEX_FILE), `${JSON.stringify(index)}\n`, { durable: false });
}

export type ListRead = { ok: true; bundles: BundleSummary[] } | { ok: false; path: string; problem: string };

/** The summaries of a scope: from the index when it matches registry.json byte for byte, else from a full read. */
export async function readScopeSummaries(root: string, scope: Scope): Promise<ListRead> {
  const path = registryPath(root);
  const link = linkOnScopePath(gjcTrustedBase(root, scope), root);
  if (link !== undefined) return { ok: false, path, problem: `${link}; gjc never follows links inside a project` };
  const stamp = stampOf(path);
  if (stamp !== undefined) {
    try {
      const index = JSON.parse(new TextDecoder().decode(readRegularFile(join(root, INDEX_FILE), MAX_REGISTRY_BYTES).bytes)) as ListIndex;
      if (index.format === INDEX_FORMAT && index.scope === scope && Array.isArray(index.bundles) && index.registryStamp === stamp) {
        return { ok: true, bundles: index.bundles };
      }
    } catch {
      // no usable index: read the registry itself
    }
  }
  // The full read is loaded only when needed: the common path stays a stat and a small file.
  // It goes through the registry's own reader (bounded, no link followed, a missing file
  // beside its last good copy fails closed).
  const [{ tryReadRegistry }, { summarize }] = await Promise.all([import("./registry.ts"), import("./summary.ts")]);
  const parsed = tryReadRegistry(root, scope);
  if (!parsed.ok) return { ok: false, path, problem: parsed.problem };
  return { ok: true, bundles: parsed.registry.plugins.map(summarize) };
}
