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

/** A bundle whose content is (re)written into the scope. */
export interface GjcPut {
  bundle: CompiledBundle;
  source: RegistrySource;
  enabled: boolean;
  disabledSurfaceIds: string[];
  /** The key that signed this content (checked by the caller); absent: unsigned. */
  signer?: BundleSigner;
}

/** A bundle kept as it is on disk whose choices change. */
export interface GjcChoice {
  name: string;
  enabled: boolean;
  disabledSurfaceIds: string[];
}

/** What one commit of a GJC scope changes: any number of bundles, in one registry write. */
export interface GjcChangeSet {
  put: GjcPut[];
  choices: GjcChoice[];
  /** Bundles removed from the scope. */
  remove: string[];
}

export const emptyChangeSet = (c: GjcChangeSet) =>
  c.put.length === 0 && c.choices.length === 0 && c.remove.length === 0;

/**
 * Where the crash tests stop a commit (store/crash-points.ts): each caller names its own
 * points, an install `install:*`, a set change `sync:*` or `rollback:*`.
 */
export interface CommitPoints {
  /** Half of a bundle's files staged. */
  staging(): void;
  /** Every file of a bundle staged, not yet placed. */
  staged?(): void;
  /** Every content directory placed, the registry not yet written. */
  placed(): void;
  /** Inside the registry write, right after its rename (the commit point). */
  committed(): void;
  /** The registry and what derives from it written, old content not yet retired. */
  recorded?(): void;
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
 * The one commit of a GJC scope, for a single install and a whole set change alike, run under
 * the scope locks after every check passed:
 *
 *   1. write each bundle's validated bytes into `.staging-…` beside its destination;
 *   2. rename it to a fresh immutable content dir `<name>@<id>` (fsync of the scope dir);
 *   3. write registry.json once: the single commit point. Before it the old state is intact
 *      (the new dirs are unreferenced orphans the next command removes); after it the new one is;
 *   4. store the committed content in the content cache (src/store/cache-fill.ts);
 *   5. move each replaced content dir aside and remove it.
 *
 * A failure before the commit removes what this call created and rethrows; a crash anywhere
 * leaves only debris that `sweepLeftovers` recognises. Returns the entries written for `put`.
 */
export function commitScopeChanges(
  ctx: Context,
  scope: LockedScope,
  changes: GjcChangeSet,
  points: CommitPoints,
): RegistryEntry[] {
  const now = ctx.now().toISOString();
  const current = new Map(scope.registry.plugins.map((p) => [p.name, p]));
  const replaced = new Set([...changes.put.map((p) => p.bundle.name), ...changes.remove]);
  const placed: string[] = [];
  const next: RegistryEntry[] = [];
  try {
    for (const p of changes.put) {
      const staging = join(scope.root, stagingDirName(p.bundle.name));
      placed.push(staging);
      const copiedFiles = writeStaging(staging, p.bundle, points.staging);
      points.staged?.();
      const dir = contentDirName(p.bundle.name, candidateFingerprint(p.bundle));
      const pluginRoot = join(scope.root, dir);
      placeStaged(staging, pluginRoot);
      placed[placed.length - 1] = pluginRoot;
      next.push({
        name: p.bundle.name,
        version: p.bundle.version,
        scope: scope.scope,
        enabled: p.enabled,
        dir,
        pluginRoot,
        manifestPath: join(pluginRoot, "gajae-plugin.json"),
        manifestHash: p.bundle.manifestSha256,
        source: p.source,
        installedAt: current.get(p.bundle.name)?.installedAt ?? now,
        updatedAt: now,
        copiedFiles,
        surfaces: registrySurfaces(p.bundle),
        disabledSurfaceIds: p.disabledSurfaceIds,
        ...(p.signer ? { signer: { ...p.signer } } : {}),
      });
    }
    points.placed();
    const choices = new Map(changes.choices.map((c) => [c.name, c]));
    const kept = scope.registry.plugins
      .filter((p) => !replaced.has(p.name))
      .map((p) => {
        const c = choices.get(p.name);
        return c ? { ...p, enabled: c.enabled, disabledSurfaceIds: c.disabledSurfaceIds, updatedAt: now } : p;
      });
    writeRegistry(scope.root, { version: 1, scope: scope.scope, plugins: [...kept, ...next] }, ctx, points.committed);
  } catch (error) {
    for (const dir of placed) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  points.recorded?.();
  for (const e of next)
    cacheCommitted(ctx, { name: e.name, family: "gjc", version: e.version, files: storedFiles(e) }, e.pluginRoot);
  for (const name of replaced) {
    const old = current.get(name);
    if (old) retireDir(ctx, scope.root, old.pluginRoot);
  }
  return next;
}

/** The write half of install and upgrade: one bundle's change set, with the install's crash points. */
export function commitInstall(ctx: Context, scope: LockedScope, put: GjcPut): RegistryEntry {
  const [entry] = commitScopeChanges(
    ctx,
    scope,
    { put: [put], choices: [], remove: [] },
    {
      staging: () => crashPoint(ctx, "install:staging"),
      staged: () => crashPoint(ctx, "install:staged"),
      placed: () => crashPoint(ctx, "install:placed"),
      committed: () => crashPoint(ctx, "install:committed"),
      recorded: () => crashPoint(ctx, "install:recorded"),
    },
  );
  return entry;
}

/** Moves a content directory that is no longer referenced aside, then deletes it (src/store/commit.ts). */
export function retireDir(ctx: Context, root: string, dir: string): void {
  storeRetireDir(dir, join(root, trashDirName()), () => crashPoint(ctx, "install:retired"));
}
