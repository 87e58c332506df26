import { rmSync } from "node:fs";
import { join } from "node:path";
import { placeStaged, retireDir as storeRetireDir } from "../store/commit.ts";
import type { Context } from "../core/context.ts";
import type { CompiledBundle } from "../families/gjc/compile-for-install.ts";
import { cacheCommitted } from "../store/cache-fill.ts";
import { crashPoint } from "../store/crash-hook.ts";
import { candidateFingerprint } from "./fingerprint.ts";
import { contentDirName, stagingDirName, trashDirName } from "../families/gjc/layout.ts";
import { writeRegistry } from "./registry.ts";
import {
  emptySurfaces,
  storedFiles,
  SURFACE_GROUPS,
  type RegistryEntry,
  type RegistrySource,
  type RegistrySurfaces,
} from "./registry-types.ts";
import type { LockedScope } from "./scope-session.ts";
import { writeStaging } from "./stage.ts";
import type { BundleSigner } from "../signing/check.ts";

export interface CommitPlan {
  bundle: CompiledBundle;
  source: RegistrySource;
  /** The entry being replaced (reinstall, --force, upgrade), if any. */
  previous?: RegistryEntry;
  enabled: boolean;
  disabledSurfaceIds: string[];
  installedAt: string;
  /** The key that signed this content (absent: unsigned). */
  signer?: BundleSigner;
}

/** The compiler's surfaces in the registry's grouped form (`id` becomes `extensionId`). */
export function registrySurfaces(bundle: CompiledBundle): RegistrySurfaces {
  const out = emptySurfaces();
  for (const s of bundle.surfaces) {
    const { id, ...rest } = s;
    const group = SURFACE_GROUPS[s.kind];
    if (group) out[group].push({ extensionId: id, ...rest });
  }
  return out;
}

/**
 * The write half of install and upgrade, run under the scope locks after every check passed:
 *
 *   1. write the validated bytes into `.staging-…` beside the destination;
 *   2. rename it to a fresh immutable content dir `<name>@<id>` (fsync of the scope dir);
 *   3. write registry.json: the single commit point. Before it the old state is intact (the
 *      new dir is an unreferenced orphan the next command removes); after it the new state is;
 *   4. move the previous content dir aside and remove it.
 *
 *   5. store the committed content in the content cache (src/store/cache-fill.ts).
 *
 * A failure before the commit removes what this call created and rethrows; a crash anywhere
 * leaves only debris that `sweepLeftovers` recognises.
 */
export function commitInstall(ctx: Context, scope: LockedScope, plan: CommitPlan): RegistryEntry {
  const { bundle } = plan;
  const staging = join(scope.root, stagingDirName(bundle.name));
  const dir = contentDirName(bundle.name, candidateFingerprint(bundle));
  const pluginRoot = join(scope.root, dir);
  let placed = false;
  let entry: RegistryEntry;
  try {
    const copiedFiles = writeStaging(staging, bundle, () => crashPoint(ctx, "install:staging"));
    crashPoint(ctx, "install:staged");
    placeStaged(staging, pluginRoot);
    placed = true;
    crashPoint(ctx, "install:placed");
    const now = ctx.now().toISOString();
    entry = {
      name: bundle.name,
      version: bundle.version,
      scope: scope.scope,
      enabled: plan.enabled,
      dir,
      pluginRoot,
      manifestPath: join(pluginRoot, "gajae-plugin.json"),
      manifestHash: bundle.manifestSha256,
      source: plan.source,
      installedAt: plan.installedAt,
      updatedAt: now,
      copiedFiles,
      surfaces: registrySurfaces(bundle),
      disabledSurfaceIds: plan.disabledSurfaceIds,
      ...(plan.signer ? { signer: { ...plan.signer } } : {}),
    };
    const plugins = scope.registry.plugins.filter((p) => p.name !== bundle.name);
    plugins.push(entry);
    writeRegistry(scope.root, { version: 1, scope: scope.scope, plugins }, ctx, () =>
      crashPoint(ctx, "install:committed"),
    );
  } catch (error) {
    rmSync(placed ? pluginRoot : staging, { recursive: true, force: true });
    throw error;
  }
  crashPoint(ctx, "install:recorded");
  cacheCommitted(
    ctx,
    { name: entry.name, family: "gjc", version: entry.version, files: storedFiles(entry) },
    pluginRoot,
  );
  if (plan.previous && plan.previous.dir !== dir) retireDir(ctx, scope.root, plan.previous.pluginRoot);
  return entry;
}

/** Moves a content directory that is no longer referenced aside, then deletes it (src/store/commit.ts). */
export function retireDir(ctx: Context, root: string, dir: string): void {
  storeRetireDir(dir, join(root, trashDirName()), () => crashPoint(ctx, "install:retired"));
}
