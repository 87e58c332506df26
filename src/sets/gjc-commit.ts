/**
 * The GJC half of a sync or rollback: one transaction for the whole scope, built from the
 * store's pieces. Under the scope locks: every new content directory is written into staging
 * beside the destination and renamed into place, then registry.json is written once (the
 * single commit point), then replaced directories are retired. A crash before the commit
 * leaves the old set (the new directories are orphans the next command sweeps); after it,
 * the new set.
 */
import type { BundleSigner } from "../signing/check.ts";
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fsyncDir } from "../bundle/atomic-fs.ts";
import type { Context } from "../core/context.ts";
import { collisionError, findCollisions } from "../install/collisions.ts";
import type { CompiledBundle } from "../families/gjc/compile-for-install.ts";
import { candidateFingerprint } from "../install/fingerprint.ts";
import { contentDirName, stagingDirName } from "../families/gjc/layout.ts";
import { writeRegistry } from "../install/registry.ts";
import { storedFiles, type RegistryEntry, type RegistrySource, type Scope } from "../install/registry-types.ts";
import { withScopes } from "../install/scope-session.ts";
import { writeStaging } from "../install/stage.ts";
import { registrySurfaces, retireDir } from "../install/transaction.ts";
import { cacheCommitted } from "../store/cache-fill.ts";
import { crashPoint } from "../store/crash-hook.ts";
import type { SetStep } from "../store/crash-points.ts";
import { ExitCode } from "../core/exit-codes.ts";

export interface GjcPut {
  bundle: CompiledBundle;
  source: RegistrySource;
  enabled: boolean;
  disabledSurfaceIds: string[];
  /** The key that signed this content (checked by the caller); absent: unsigned. */
  signer?: BundleSigner;
}

export interface GjcChoice {
  name: string;
  enabled: boolean;
  disabledSurfaceIds: string[];
}

export interface GjcChangeSet {
  /** Bundles whose content is (re)written. */
  put: GjcPut[];
  /** Bundles kept as they are on disk whose choices change. */
  choices: GjcChoice[];
  /** Bundles removed from the scope. */
  remove: string[];
}

export const emptyChangeSet = (c: GjcChangeSet) =>
  c.put.length === 0 && c.choices.length === 0 && c.remove.length === 0;

/**
 * Applies the change set. `expect` is the registry state the plan was made against (entry
 * name → dir, or undefined for absent): if another command changed the scope meanwhile the
 * transaction stops with stale_baseline rather than overwrite that change.
 */
export async function commitGjcChanges(
  ctx: Context,
  scope: Scope,
  command: string,
  changes: GjcChangeSet,
  expect: Map<string, string | undefined>,
  step: SetStep,
): Promise<void> {
  await withScopes(ctx, scope, command, true, async (s) => {
    const now = ctx.now().toISOString();
    const current = new Map(s.target.registry.plugins.map((p) => [p.name, p]));
    for (const [name, dir] of expect) {
      if (current.get(name)?.dir !== dir) {
        const { GjcError } = await import("../core/errors.ts");
        throw new GjcError({
          code: "stale_baseline",
          message: `${name} in the ${scope} scope changed while ${command} was prepared (another gjc command changed it).`,
          hint: `Run "${command}" again.`,
          exit: ExitCode.failed,
        });
      }
    }
    const other = scope === "user" ? s.project.registry.plugins : s.user.registry.plugins;
    const replaced = new Set([...changes.put.map((p) => p.bundle.name), ...changes.remove]);
    const kept = s.target.registry.plugins.filter((p) => !replaced.has(p.name));
    for (const p of changes.put) {
      const collisions = findCollisions(p.bundle, [...other, ...kept]);
      if (collisions.length > 0) throw collisionError(p.bundle, collisions);
    }
    const placed: string[] = [];
    const next: RegistryEntry[] = [];
    try {
      for (const p of changes.put) {
        const staging = join(s.target.root, stagingDirName(p.bundle.name));
        placed.push(staging);
        const copiedFiles = writeStaging(staging, p.bundle, () => crashPoint(ctx, `${step}:staging`));
        const dir = contentDirName(p.bundle.name, candidateFingerprint(p.bundle));
        const pluginRoot = join(s.target.root, dir);
        renameSync(staging, pluginRoot);
        placed[placed.length - 1] = pluginRoot;
        const previous = current.get(p.bundle.name);
        next.push({
          name: p.bundle.name,
          version: p.bundle.version,
          scope,
          enabled: p.enabled,
          dir,
          pluginRoot,
          manifestPath: join(pluginRoot, "gajae-plugin.json"),
          manifestHash: p.bundle.manifestSha256,
          source: p.source,
          installedAt: previous?.installedAt ?? now,
          updatedAt: now,
          copiedFiles,
          surfaces: registrySurfaces(p.bundle),
          disabledSurfaceIds: [...p.disabledSurfaceIds].sort(),
          ...(p.signer ? { signer: { ...p.signer } } : {}),
        });
      }
      fsyncDir(s.target.root);
      crashPoint(ctx, `${step}:placed`);
      const choices = new Map(changes.choices.map((c) => [c.name, c]));
      const plugins = [
        ...kept.map((p) => {
          const c = choices.get(p.name);
          return c
            ? { ...p, enabled: c.enabled, disabledSurfaceIds: [...c.disabledSurfaceIds].sort(), updatedAt: now }
            : p;
        }),
        ...next,
      ];
      writeRegistry(s.target.root, { version: 1, scope, plugins }, ctx, () => crashPoint(ctx, `${step}:committed`));
    } catch (error) {
      for (const dir of placed) rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    for (const e of next)
      cacheCommitted(ctx, { name: e.name, family: "gjc", version: e.version, files: storedFiles(e) }, e.pluginRoot);
    for (const name of replaced) {
      const old = current.get(name);
      if (old) retireDir(ctx, s.target.root, old.pluginRoot);
    }
  });
}
