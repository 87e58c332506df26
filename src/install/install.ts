import type { Context } from "../core/context.ts";
import type { InstallResult, InstallStatus } from "../store/documents.ts";
import { docSource } from "./source-display.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { collisionError, findCollisions } from "./collisions.ts";
import { compileForInstall, type CompiledBundle } from "../families/gjc/compile-for-install.ts";
import { assertMayReplace } from "../store/already-installed.ts";
import { crashPoint } from "../store/crash-hook.ts";
import { installedMode } from "../families/gjc/layout.ts";
import { decide, reconcileDisabled, surfaceDelta, type Decision, type SurfaceDelta } from "./decide.ts";
import { scopeFlag, scopeRoot } from "../families/gjc/layout.ts";
import { readRegistry } from "./registry.ts";
import type { RegistryEntry, RegistrySource, Scope } from "./registry-types.ts";
import { withScopes } from "./scope-session.ts";
import { commitInstall } from "./transaction.ts";
import { assertSameSigner, type SignaturePolicy } from "../signing/check.ts";
import { gjcSignature, signerWarning } from "../store/bundle-signature.ts";

/** A fetched source as the sources layer hands it over. */
export interface FetchedBundle {
  dir: string;
  record: object & { kind: string };
  display: string;
  /** A detached signature the sources layer fetched beside the source. */
  signature?: { text: string; label: string };
}

/** The GJC half of the shared install/upgrade document (src/store/documents.ts). */
export type GjcInstallResult = InstallResult & { family: "gjc"; gjc: { surfaces: SurfaceDelta } };

export interface GjcInstallOptions extends SignaturePolicy {
  scope: Scope;
  force?: boolean;
  dryRun?: boolean;
  /** Shown to anyone waiting for the lock. */
  command?: string;
  /** Upgrade: the entry as it was when the upgrade was previewed (stale check under the lock). */
  baseline?: RegistryEntry;
  /** `install --integrity`: the content integrity the compiled bundle must have (its bytes are the ones copied). */
  expectIntegrity?: string;
}

export function toRegistrySource(ctx: Context, record: FetchedBundle["record"]): RegistrySource {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) if (v !== undefined) out[k] = v;
  return { ...(out as unknown as RegistrySource), resolvedAt: ctx.now().toISOString() };
}

const wouldStatus: Record<string, InstallStatus> = {
  install: "would-install",
  update: "would-update",
  repair: "would-repair",
  unchanged: "unchanged",
};
const doneStatus: Record<string, InstallStatus> = {
  install: "installed",
  update: "updated",
  repair: "repaired",
  unchanged: "unchanged",
};

/**
 * Installs a compiled GJC bundle into one scope (DESIGN items 9 and 13). Checks run first
 * without any lock (so a refusal mutates nothing, not even a lock file), then again under the
 * locks, where the registries of both scopes are the authority on collisions.
 */
export async function installCompiled(
  ctx: Context,
  bundle: CompiledBundle,
  warnings: Diagnostic[],
  fetched: FetchedBundle,
  opts: GjcInstallOptions,
): Promise<GjcInstallResult> {
  const { scope } = opts;
  // The signature is judged before anything else: a bad one refuses even a dry run.
  const signature = await gjcSignature(ctx, bundle, fetched, scope, opts);
  const signed = signerWarning(bundle.name, signature);
  if (signed) warnings = [...warnings, signed];
  const result = (status: InstallStatus, previous: RegistryEntry | undefined): GjcInstallResult => ({
    family: "gjc",
    status,
    name: bundle.name,
    version: bundle.version,
    ...(previous ? { previousVersion: previous.version } : {}),
    scope,
    files: bundle.files.length,
    bytes: bundle.files.reduce((n, f) => n + f.bytes, 0),
    enabled: previous?.enabled ?? true,
    source: docSource(toRegistrySource(ctx, fetched.record)),
    warnings,
    signature,
    gjc: { surfaces: surfaceDelta(previous, bundle) },
  });
  const judge = (existing: RegistryEntry | undefined): Decision => {
    const d = decide(existing, bundle);
    if (existing) {
      assertMayReplace(d.action, opts.force === true || opts.baseline !== undefined, () => ({
        family: "gjc",
        held: "other-content",
        name: bundle.name,
        scope,
        installedVersion: existing.version,
        candidateVersion: bundle.version,
      }));
    }
    if (d.action !== "unchanged") assertSameSigner(bundle.name, existing?.signer, signature, opts.acceptSigner);
    return d;
  };

  // Preflight without locks: refusals here leave no trace at all.
  const roots = { user: scopeRoot(ctx, "user"), project: scopeRoot(ctx, "project") };
  const pre = { user: readRegistry(roots.user, "user", ctx), project: readRegistry(roots.project, "project", ctx) };
  const preExisting = pre[scope].plugins.find((p) => p.name === bundle.name);
  const preDecision = judge(preExisting);
  if (preDecision.action === "unchanged") return result("unchanged", preExisting);
  const preCollisions = findCollisions(bundle, [...pre.user.plugins, ...pre.project.plugins]);
  if (preCollisions.length > 0) throw collisionError(bundle, preCollisions);
  if (opts.dryRun) {
    const would = result(wouldStatus[preDecision.action], preExisting);
    if (preExisting)
      would.capabilityDiff = await (await import("../store/install-diff.ts")).gjcInstallDiff(
        preExisting.pluginRoot,
        bundle,
        { ctx, scope },
      );
    return would;
  }

  crashPoint(ctx, "install:compiled");
  return withScopes(ctx, scope, opts.command ?? "gjc plugin install", true, (s) => {
    crashPoint(ctx, "install:locked");
    const existing = s.target.registry.plugins.find((p) => p.name === bundle.name);
    if (opts.baseline) assertBaseline(opts.baseline, existing, scope);
    const decision = judge(existing);
    if (decision.action === "unchanged") return result("unchanged", existing);
    const collisions = findCollisions(bundle, [...s.user.registry.plugins, ...s.project.registry.plugins]);
    if (collisions.length > 0) throw collisionError(bundle, collisions);
    commitInstall(ctx, s.target, {
      bundle,
      source: toRegistrySource(ctx, fetched.record),
      enabled: existing?.enabled ?? true,
      disabledSurfaceIds: reconcileDisabled(existing, bundle),
      signer: signature.signer,
    });
    return result(doneStatus[decision.action], existing);
  });
}

/** Upgrade's stale check: the entry must be the one the preview was computed against. */
function assertBaseline(baseline: RegistryEntry, now: RegistryEntry | undefined, scope: Scope): void {
  const key = (e: RegistryEntry) => [e.dir, e.enabled, e.disabledSurfaceIds, e.quarantine ?? [], e.source];
  if (!now) {
    throw new GjcError({
      code: "not_installed",
      message: `${baseline.name} was uninstalled from the ${scope} scope while the upgrade was prepared.`,
      hint: "Install it again with gjc plugin install.",
      exit: ExitCode.failed,
    });
  }
  if (!Bun.deepEquals(key(now), key(baseline))) {
    throw new GjcError({
      code: "stale_baseline",
      message: `${baseline.name} in the ${scope} scope changed while the upgrade was prepared (another gjc command changed it).`,
      hint: `Run "gjc plugin upgrade ${baseline.name} ${scopeFlag(scope)}" again.`,
      exit: ExitCode.failed,
    });
  }
}

/** Compile then install: the GJC half of `gjc plugin install`. */
export async function installGjcBundle(
  ctx: Context,
  fetched: FetchedBundle,
  opts: GjcInstallOptions,
): Promise<GjcInstallResult> {
  const { bundle, warnings } = await compileForInstall(fetched.dir);
  if (opts.expectIntegrity !== undefined) {
    const { assertIntegrity } = await import("../bundle/content-integrity.ts");
    assertIntegrity(
      bundle.files.map((f) => ({ path: f.path, mode: installedMode(f.mode), sha256: f.sha256 })),
      opts.expectIntegrity,
      bundle.name,
      fetched.display,
    );
  }
  return installCompiled(ctx, bundle, warnings, fetched, opts);
}
