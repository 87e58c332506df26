import { gjcTrustedBase, linkOnScopePath } from "../store/scope-path.ts";
import { join } from "node:path";
import { fileStamp, readDerivedIndex, writeDerivedIndex } from "../store/derived-index.ts";
import { registryMac, sameMac, stateKey } from "../store/state-mac.ts";
import type { Static } from "typebox";
import type { ListIndexSchema } from "../store/index-schemas.ts";
import type { Context } from "../core/context.ts";
import { ListIndex } from "../store/disk-schemas.generated.ts";
import { INDEX_FILE, registryPath } from "./layout.ts";
import type { Scope } from "./registry-types.ts";
import type { BundleSummary } from "./summary.ts";

/** Bumped whenever BundleSummary or the file layout changes, so an older index is simply not used. */
const INDEX_FORMAT = 2;

type ListIndexBody = Static<typeof ListIndexSchema>;

const indexMac = (key: Uint8Array, scope: Scope, stamp: string, bundles: unknown) => registryMac(key, `list-index:${scope}:${stamp}`, bundles);

/**
 * A derived, disposable index for `gjc plugin list` (src/store/derived-index.ts): the summaries
 * of the registry we just committed, bound to that registry.json by its stamp. List stats
 * registry.json instead of parsing and checking it entry by entry (50 bundles are about a
 * megabyte); any difference (a crash between the two writes, a hand edit, a restored copy)
 * makes list fall back to the full, fail-closed read. Nothing else ever reads the index.
 */
export function writeListIndex(root: string, scope: Scope, bundles: BundleSummary[], ctx: Context): void {
  const stamp = fileStamp(registryPath(root));
  if (stamp === undefined) return;
  const plain = JSON.parse(JSON.stringify(bundles)) as BundleSummary[];
  const index: ListIndexBody = { scope, registryStamp: stamp, bundles: plain, mac: indexMac(stateKey(ctx, true) as Uint8Array, scope, stamp, plain) };
  writeDerivedIndex(join(root, INDEX_FILE), INDEX_FORMAT, index);
}

export type ListRead = { ok: true; bundles: BundleSummary[] } | { ok: false; path: string; problem: string; foreign?: true };

/** The summaries of a scope: from the index when it matches registry.json byte for byte, else from a full read. */
export async function readScopeSummaries(root: string, scope: Scope, ctx: Context): Promise<ListRead> {
  const path = registryPath(root);
  const link = linkOnScopePath(gjcTrustedBase(root, scope), root);
  if (link !== undefined) return { ok: false, path, problem: `${link}; gjc never follows links inside a project` };
  const stamp = fileStamp(path);
  const index = stamp === undefined ? undefined : (readDerivedIndex(join(root, INDEX_FILE), INDEX_FORMAT, ListIndex) as ListIndexBody | undefined);
  if (index && index.scope === scope && index.registryStamp === stamp) {
    const key = stateKey(ctx, false);
    if (key && sameMac(index.mac, indexMac(key, scope, stamp, index.bundles))) return { ok: true, bundles: index.bundles };
  }
  // The full read is loaded only when needed: the common path stays a stat and a small file.
  // It goes through the registry's own reader (bounded, no link followed, a missing file
  // beside its last good copy fails closed).
  const [{ tryReadRegistry }, { summarize }] = await Promise.all([import("./registry.ts"), import("./summary.ts")]);
  const parsed = tryReadRegistry(root, scope, ctx);
  if (!parsed.ok) return { ok: false, path, problem: parsed.problem, ...(parsed.foreign ? { foreign: true as const } : {}) };
  return { ok: true, bundles: parsed.registry.plugins.map(summarize) };
}
