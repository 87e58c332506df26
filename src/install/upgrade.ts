import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { compileForInstall } from "../families/gjc/compile-for-install.ts";
import { fetchRecorded } from "./fetch-source.ts";
import { installCompiled, type GjcInstallResult } from "./install.ts";
import { scopeRoot } from "../families/gjc/layout.ts";
import { notInstalled } from "./not-installed.ts";
import { readRegistry } from "./registry.ts";
import type { Scope } from "./registry-types.ts";
import type { SignaturePolicy } from "../signing/check.ts";

/**
 * `gjc plugin upgrade <name>`: re-resolves the recorded source (same location and ref; a git
 * branch that moved yields its new commit), compiles it, and runs the install transaction
 * with the entry as it was read here as the baseline: if another command changed the entry
 * meanwhile, the upgrade stops (`stale_baseline`) instead of overwriting that change.
 * Enablement and per-surface choices carry over.
 */
export async function upgradeGjc(
  ctx: Context,
  name: string,
  scope: Scope,
  opts: { dryRun?: boolean; onProgress?: (m: string) => void } & SignaturePolicy = {},
): Promise<GjcInstallResult> {
  const baseline = readRegistry(scopeRoot(ctx, scope), scope, ctx).plugins.find((p) => p.name === name);
  if (!baseline) throw notInstalled(name, scope);
  const fetched = await fetchRecorded(ctx, baseline.source, opts.onProgress);
  try {
    const { bundle, warnings } = await compileForInstall(fetched.dir);
    if (bundle.name !== name) {
      throw new GjcError({
        code: "identity_mismatch",
        message: `The recorded source of ${name} now holds a bundle named ${JSON.stringify(bundle.name)}.`,
        hint: `Uninstall ${name} and install the new bundle under its own name if that is what you want.`,
        exit: ExitCode.failed,
      });
    }
    const { withReleaseLog } = await import("../store/release-log-hook.ts");
    return await withReleaseLog(ctx, fetched, opts.dryRun, () =>
      installCompiled(ctx, bundle, warnings, fetched, {
        scope,
        dryRun: opts.dryRun,
        requireSigned: opts.requireSigned,
        acceptSigner: opts.acceptSigner,
        baseline,
        command: "gjc plugin upgrade",
      }),
    );
  } finally {
    await fetched.cleanup();
  }
}
