import { join } from "node:path";
import { fileStamp, readDerivedIndex, writeDerivedIndex } from "../store/derived-index.ts";
import { registryMac, sameMac, stateKey } from "../store/state-mac.ts";
import type { Static } from "typebox";
import type { ListIndexSchema } from "../store/index-schemas.ts";
import type { Context } from "../core/context.ts";
import { ListIndex } from "../store/disk-schemas.generated.ts";
import { INDEX_FILE, registryPath } from "../families/gjc/layout.ts";
import type { Scope } from "./registry-types.ts";
import type { BundleSummary } from "./summary.ts";

/** Bumped whenever BundleSummary or the file layout changes, so an older index is simply not used. */
const INDEX_FORMAT = 2;

type ListIndexBody = Static<typeof ListIndexSchema>;

const indexMac = (key: Uint8Array, scope: Scope, stamp: string, bundles: unknown) =>
  registryMac(key, `list-index:${scope}:${stamp}`, JSON.stringify(bundles));

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
  const index: ListIndexBody = {
    scope,
    registryStamp: stamp,
    bundles: plain,
    mac: indexMac(stateKey(ctx, true) as Uint8Array, scope, stamp, plain),
  };
  writeDerivedIndex(join(root, INDEX_FILE), INDEX_FORMAT, index);
}

/**
 * The summaries the index holds, when it matches registry.json byte for byte and carries this
 * user's MAC; undefined otherwise (the caller then reads the registry itself).
 */
export function readListIndex(root: string, scope: Scope, ctx: Context): BundleSummary[] | undefined {
  const stamp = fileStamp(registryPath(root));
  if (stamp === undefined) return undefined;
  const index = readDerivedIndex(join(root, INDEX_FILE), INDEX_FORMAT, ListIndex) as ListIndexBody | undefined;
  if (!index || index.scope !== scope || index.registryStamp !== stamp) return undefined;
  const key = stateKey(ctx, false);
  return key && sameMac(index.mac, indexMac(key, scope, stamp, index.bundles)) ? index.bundles : undefined;
}
