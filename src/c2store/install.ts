/**
 * C2 install: the validate pipeline (planC2Bundle) on the fetched bundle root, then the
 * verbatim collected bytes, with their modes, staged beside the destination and committed by
 * rename. Data-only: nothing in the bundle is executed, no script, no runtime.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFiles } from "../store/files.ts";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { placeStaged } from "../store/commit.ts";
import type { Context } from "../core/context.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { installedId } from "../families/c2/ids.ts";
import { invalidBundleError } from "../families/refusal.ts";
import { planC2Bundle, type C2Plan } from "../families/c2/validate.ts";
import type { C2Manifest } from "../families/c2/types.ts";
import type { DocSource, InstallResult, InstallStatus } from "../store/documents.ts";
import { verifyFiles } from "../store/verify.ts";
import type { FetchedSource } from "../sources/types.ts";
import { cacheCommitted } from "../store/cache-fill.ts";
import { assertMayReplace } from "../store/already-installed.ts";
import { crashPoint } from "../store/crash-hook.ts";
import { c2Capabilities } from "../families/c2/capabilities.ts";
import { trustedCapabilities } from "../families/c2/trust.ts";
import { cleanLeftovers, uniqueSuffix } from "./leftovers.ts";
import { withC2Lock } from "./lock.ts";
import { bundleDir, bundleHome, c2Layout, userDataDir, RECORD_FILE, type C2Layout } from "./paths.ts";
import {
  RECORD_SCHEMA_VERSION,
  serializeRecord,
  storedFiles,
  type InstalledRecord,
  type RecordSource,
} from "./record.ts";
import { componentsOf, storedComponents } from "./record-components.ts";
import { readRecord, scanRecords } from "./records.ts";
import { foreignRecordError } from "./foreign-record.ts";
import { refreshRecordsIndex } from "./records-index.ts";
import { c2SourceIdentity, c2SourceKind, sourceSpecOf } from "./source-identity.ts";
import { c2Content } from "../store/bundle-digest.ts";
import { assertSameSigner, checkBundleSignature, type SignatureCheck, type SignaturePolicy } from "../signing/check.ts";
import { locateSignature } from "../signing/locate.ts";
import { signerWarning } from "../store/bundle-signature.ts";
import { recordSigner, signerOfRecord } from "./record-signer.ts";

export const REQUIRES_TRUST_NOTICE = "ships a process. It runs only after you mark the plugin trusted";

/** The C2 half of the shared install/upgrade document (src/store/documents.ts). */
export type C2InstallResult = InstallResult & { family: "c2"; c2: NonNullable<InstallResult["c2"]> };

/** How documents spell a C2 source kind (the record keeps its own spelling on disk). */
export const DOC_SOURCE_KIND = { local: "path", archive: "tarball", git: "git", github: "github" } as const;

export function c2DocSource(source: RecordSource): DocSource {
  const ref = source.resolved.ref;
  const sha = source.resolved.sha;
  const sha256 = source.resolved.sha256;
  return {
    kind: DOC_SOURCE_KIND[source.kind],
    display: source.display,
    ...(typeof ref === "string" ? { ref } : {}),
    ...(typeof sha === "string" ? { sha } : {}),
    ...(typeof sha256 === "string" ? { sha256 } : {}),
  };
}

export interface InstallOptions extends SignaturePolicy {
  /** The signature as the caller already checked it (sync): used as is, no second check. */
  signature?: SignatureCheck;
  fetched: FetchedSource;
  force?: boolean;
  dryRun?: boolean;
  /** Catalog installs: the identity, label and default enablement come from the entry. */
  /** Upgrades: the id the bundle must keep (a renamed bundle is refused, not installed beside). */
  expectId?: string;
  catalog?: {
    path: string;
    name: string;
    displayName: string;
    entry: string;
    identity?: string;
    defaultEnabled: boolean;
    expectVersion: string;
  };
  /**
   * The files judged before (a sync's content from the cache, an `--integrity` install): the
   * collection this install writes must be exactly these, or nothing is written. The bytes
   * staged are the bytes this install's own collection hashed, so a file swapped after the
   * earlier judgement cannot be installed under it.
   */
  expectFiles?: readonly { path: string; sha256: string; mode: number }[];
  /** `install --integrity`: the content integrity (src/bundle/content-integrity.ts) the bundle must have. */
  expectIntegrity?: string;
}

type Decision = "install" | "update" | "repair" | "unchanged";
const WOULD: Record<Decision, InstallStatus> = {
  install: "would-install",
  update: "would-update",
  repair: "would-repair",
  unchanged: "unchanged",
};
const DONE: Record<Decision, InstallStatus> = {
  install: "installed",
  update: "updated",
  repair: "repaired",
  unchanged: "unchanged",
};

/**
 * What installing these files over the record of the same id means, as for GJC bundles:
 * identical content is a no-op unless the installed copy drifted or is quarantined (then the
 * reinstall repairs it and clears the quarantine); different content is an update.
 */
function decide(
  layout: C2Layout,
  previous: ReturnType<typeof readRecord>,
  prior: InstalledRecord | undefined,
  files: InstalledRecord["files"],
  manifestJson: string,
): Decision {
  if (previous === undefined) return "install";
  if (!prior || !sameContent(prior, files, manifestJson)) return prior ? "update" : "repair";
  if (prior.quarantine !== null) return "repair";
  return verifyFiles(bundleDir(layout, prior.id), storedFiles(prior)).ok ? "unchanged" : "repair";
}

/** A command's namespace: the part of its id before the first dot (`hello` of `hello.greet`). */
const namespaceOf = (commandId: string) => commandId.split(".")[0].toLowerCase();

/** A bundle may not declare commands in a namespace another installed bundle already owns. */
function assertCommandNamespaces(manifest: C2Manifest, others: InstalledRecord[]): void {
  const owners = new Map<string, InstalledRecord>();
  for (const r of others) for (const c of r.manifest.codetwo.commands) owners.set(namespaceOf(c.id), r);
  for (const c of manifest.codetwo.commands) {
    const owner = owners.get(namespaceOf(c.id));
    if (!owner) continue;
    throw new GjcError({
      code: "command_conflict",
      message: `${manifest.name} declares the command ${c.id}, but the namespace "${namespaceOf(c.id)}" belongs to the installed bundle ${owner.name} (${owner.id}).`,
      hint: `Uninstall ${owner.name} first (gjc plugin uninstall ${owner.name}), or rename the bundle's commands into a namespace of its own.`,
      details: { command: c.id, owner: owner.id },
      exit: ExitCode.failed,
    });
  }
}

/** Same content = same files (path, bytes, mode) and the same manifest. */
function sameContent(a: InstalledRecord, files: InstalledRecord["files"], manifestJson: string): boolean {
  if (a.files.length !== files.length) return false;
  for (let i = 0; i < files.length; i++) {
    const x = a.files[i];
    const y = files[i];
    if (x.path !== y.path || x.sha256 !== y.sha256 || x.mode !== y.mode) return false;
  }
  return JSON.stringify(a.manifest) === manifestJson;
}

function stageBundle(stage: string, plan: C2Plan, record: InstalledRecord): void {
  writeFiles(join(stage, "bundle"), storedFiles(record), plan.collection.contents!);
  writeFileAtomic(join(stage, RECORD_FILE), serializeRecord(record));
}

/** Moves the staged dir into place; the old bundle (if any) is swapped out and deleted after. */
function commitStage(ctx: Context, layout: C2Layout, id: string, stage: string, replacing: boolean): void {
  const home = bundleHome(layout, id);
  let backup: string | undefined;
  crashPoint(ctx, "c2install:staged");
  if (replacing) {
    backup = join(layout.plugins, `.${id}.backup-${uniqueSuffix()}`);
    renameSync(home, backup);
    crashPoint(ctx, "c2install:backed-up");
  }
  try {
    placeStaged(stage, home);
  } catch (error) {
    if (backup) renameSync(backup, home);
    throw error;
  }
  crashPoint(ctx, "c2install:committed");
  if (backup) rmSync(backup, { recursive: true, force: true });
}

function describeSource(fetched: FetchedSource, catalog: InstallOptions["catalog"]): RecordSource {
  const identity = catalog?.identity ?? c2SourceIdentity(fetched);
  const { kind: _kind, ...resolved } = fetched.record as Record<string, unknown> & { kind: string };
  return {
    kind: c2SourceKind(fetched.record),
    spec: catalog ? `${catalog.name}@${catalog.path}` : sourceSpecOf(fetched.record),
    display: catalog ? `Marketplace · ${catalog.displayName}` : fetched.display,
    identity,
    resolved,
    catalog: catalog ? { path: catalog.path, name: catalog.displayName, entry: catalog.entry } : null,
  };
}

/** The signature of a planned C2 bundle, over the integrity of the collected files. */
async function c2Signature(
  ctx: Context,
  fetched: FetchedSource,
  plan: C2Plan,
  name: string,
  policy: SignaturePolicy,
): Promise<SignatureCheck> {
  const signature = locateSignature(fetched);
  if (!signature && !policy.requireSigned) return { status: "unsigned" };
  return checkBundleSignature(ctx, {
    name,
    integrity: c2Content(plan.collection.files).integrity,
    signature,
    scope: "user",
    requireSigned: policy.requireSigned,
  });
}

/**
 * Installs (or, with `force`, replaces) a C2 bundle from a fetched source. The same id
 * with identical content is a no-op (`unchanged`); different content needs `force`. An update
 * keeps `enabled`/`trusted` and `installed_at`; a new install starts enabled (or the catalog
 * entry's defaultEnabled) and untrusted.
 */
export async function installFetched(ctx: Context, opts: InstallOptions): Promise<C2InstallResult> {
  const { fetched } = opts;
  const plan = planC2Bundle(fetched.dir, { keepContents: !opts.dryRun });
  if (!plan.ok || !plan.manifest || plan.collection.aborted) throw invalidBundleError(plan.dir, plan.diagnostics);
  const manifest = plan.manifest;
  if (opts.catalog) {
    if (manifest.name !== opts.catalog.entry) {
      throw new GjcError({
        code: "catalog_mismatch",
        message: `The catalog entry ${opts.catalog.entry} points at a bundle named ${manifest.name}.`,
        hint: "The entry name and the bundle's plugin.json name must be equal; fix the catalog.",
        exit: ExitCode.refused,
      });
    }
    if (manifest.version !== opts.catalog.expectVersion) {
      throw new GjcError({
        code: "catalog_mismatch",
        message: `The catalog says ${opts.catalog.entry} ${opts.catalog.expectVersion}, but the bundle is version ${manifest.version}.`,
        hint: "The entry version and the bundle's plugin.json version must be equal; fix the catalog.",
        exit: ExitCode.refused,
      });
    }
  }
  const signature = opts.signature ?? (await c2Signature(ctx, fetched, plan, manifest.name, opts));
  const source = describeSource(fetched, opts.catalog);
  const id = installedId(manifest.name, source.identity);
  if (opts.expectId !== undefined && id !== opts.expectId) {
    throw new GjcError({
      code: "identity_changed",
      message: `The source now holds ${manifest.name} (installed id ${id}), not the bundle installed as ${opts.expectId}.`,
      hint: `Install it as a new bundle with gjc plugin install, and uninstall ${opts.expectId} if you no longer want it.`,
      exit: ExitCode.refused,
    });
  }
  const layout = c2Layout(ctx);
  const files = plan.collection.files.map((f) => ({ path: f.path, size: f.size, mode: f.mode, sha256: f.sha256 }));
  if (opts.expectFiles !== undefined) {
    const { sameFiles, contentChanged } = await import("./expect-files.ts");
    if (!sameFiles(files, opts.expectFiles)) throw contentChanged(manifest.name, fetched.display);
  }
  if (opts.expectIntegrity !== undefined) {
    const { assertIntegrity } = await import("../bundle/content-integrity.ts");
    assertIntegrity(files, opts.expectIntegrity, manifest.name, fetched.display);
  }
  const manifestJson = JSON.stringify(manifest);
  const work = async (): Promise<C2InstallResult> => {
    if (!opts.dryRun) cleanLeftovers(layout);
    const previous = readRecord(layout, id);
    // The C2 app's bundle from the same source has the same id: gjc never replaces it.
    if (previous !== undefined && "foreign" in previous && previous.foreign !== undefined)
      throw foreignRecordError(previous.foreign);
    const prior = previous && !("problem" in previous) ? previous : undefined;
    // The id's hash part is short: another source whose identity collides is another bundle.
    // Matched by the stored identity string, it inherits neither trust nor the data directory.
    if (prior && prior.source.identity !== source.identity) {
      const { identityCollision } = await import("./expect-files.ts");
      throw identityCollision(id, prior.source.identity, source.identity, manifest.name);
    }
    const installed = scanRecords(layout).records;
    // The same name from another source (another id): refused unless --force replaces it.
    const sameName =
      opts.expectId !== undefined ? [] : installed.filter((r) => r.name === manifest.name && r.id !== id);
    // The same name from another source is never silently replaced.
    if (sameName.length > 0) {
      assertMayReplace("other-source", opts.force === true, () => ({
        family: "c2",
        held: "other-source",
        name: manifest.name,
        installedId: sameName[0].id,
        installedSource: sameName[0].source.display,
        candidateSource: source.display,
      }));
    }
    assertCommandNamespaces(
      manifest,
      installed.filter((r) => r.id !== id && !sameName.includes(r)),
    );
    const now = ctx.now().toISOString();
    const record: InstalledRecord = {
      schema_version: RECORD_SCHEMA_VERSION,
      id,
      name: manifest.name,
      version: manifest.version,
      standard_version: "1.2.0",
      enabled: prior ? prior.enabled : (opts.catalog?.defaultEnabled ?? true),
      // Trust belongs to a source: a bundle replacing one from another source starts untrusted.
      trusted: prior ? prior.trusted : false,
      scope: "user",
      source,
      installed_at: prior?.installed_at ?? now,
      updated_at: now,
      files,
      total_bytes: plan.collection.totalBytes,
      contributions: { ...plan.contributions.counts },
      components: storedComponents(plan.contributions.components),
      diagnostics: plan.diagnostics,
      quarantine: null,
      manifest,
      // Capability-bound trust (src/families/c2/trust.ts): what this content can do, and what was trusted before.
      capabilities: trustedCapabilities(c2Capabilities({ ...plan, manifest }), files),
      ...(prior?.trusted_capabilities ? { trusted_capabilities: prior.trusted_capabilities } : {}),
      ...(signature.signer ? { signer: recordSigner(signature.signer) } : {}),
    };
    const decision = decide(layout, previous, prior, files, manifestJson);
    assertMayReplace(decision, opts.force === true, () => ({
      family: "c2",
      held: "other-content",
      name: manifest.name,
      id,
      installedVersion: prior?.version,
      candidateVersion: manifest.version,
    }));
    if (decision !== "unchanged" && !opts.signature)
      assertSameSigner(
        manifest.name,
        prior?.signer ? signerOfRecord(prior.signer) : undefined,
        signature,
        opts.acceptSigner,
      );
    const status = (opts.dryRun ? WOULD : DONE)[decision];
    const warnings: Diagnostic[] = [];
    const signed = signerWarning(manifest.name, signature);
    if (signed) warnings.push(signed);
    if (!record.trusted && (manifest.codetwo.runtime !== null || manifest.codetwo.languageServers.length > 0)) {
      warnings.push({
        code: "runtime.requires_trust",
        severity: "warning",
        path: "plugin.json",
        message: `${manifest.name} ${REQUIRES_TRUST_NOTICE} (gjc plugin trust ${manifest.name}).`,
      });
    }
    for (const other of sameName)
      warnings.push({
        code: "replaced_source",
        severity: "warning",
        path: bundleHome(layout, other.id),
        message: `${manifest.name} from ${other.source.display} (${other.id}) is replaced; its trust and policy do not carry over.`,
      });
    const result: C2InstallResult = {
      family: "c2",
      status,
      name: manifest.name,
      version: manifest.version,
      ...(prior ? { previousVersion: prior.version } : sameName[0] ? { previousVersion: sameName[0].version } : {}),
      scope: "user",
      files: files.length,
      bytes: record.total_bytes,
      enabled: record.enabled,
      source: c2DocSource(source),
      warnings,
      signature,
      c2: {
        id,
        bundleDir: bundleDir(layout, id),
        dataDir: userDataDir(layout, id),
        trusted: record.trusted,
        identity: source.identity,
        spec: source.spec,
        contributions: record.contributions,
        components: componentsOf(record.components),
        diagnostics: record.diagnostics,
      },
    };
    if (opts.dryRun && prior && decision !== "unchanged")
      result.capabilityDiff = await (await import("../store/install-diff.ts")).c2InstallDiff(
        bundleDir(layout, id),
        { ...plan, manifest },
        { ctx, scope: "user" },
      );
    if (decision === "unchanged" || opts.dryRun) return result;
    // Another gjc host running this bundle (or a same-name one about to be removed) stops its
    // processes when it sees the change; the result says so (store/live-registry.ts).
    const { liveProcessesNotice } = await import("../store/live-registry.ts");
    for (const notice of [
      previous !== undefined ? liveProcessesNotice(layout.root, id, manifest.name, "replace") : undefined,
      ...sameName.map((o) => liveProcessesNotice(layout.root, o.id, o.name, "uninstall")),
    ]) {
      if (notice) warnings.push(notice);
    }

    const createdPlugins = !existsSync(layout.plugins);
    mkdirSync(layout.plugins, { recursive: true, mode: 0o755 });
    const stage = join(layout.plugins, `.${id}.stage-${uniqueSuffix()}`);
    try {
      stageBundle(stage, plan, record);
      commitStage(ctx, layout, id, stage, previous !== undefined);
    } catch (error) {
      rmSync(stage, { recursive: true, force: true });
      if (createdPlugins) rmSync(layout.plugins, { recursive: true, force: true });
      throw error;
    }
    mkdirSync(userDataDir(layout, id), { recursive: true, mode: 0o700 });
    cacheCommitted(
      ctx,
      {
        name: record.name,
        family: "c2",
        version: record.version,
        files: storedFiles(record).map((f) => ({
          path: f.path,
          mode: f.mode & 0o777,
          sha256: f.sha256,
          bytes: f.bytes,
        })),
      },
      bundleDir(layout, id),
    );
    if (sameName.length > 0) {
      const { retireC2Bundle } = await import("./retire.ts");
      for (const other of sameName) await retireC2Bundle(ctx, layout, other, { keepData: false });
    }
    refreshRecordsIndex(layout);
    return result;
  };
  if (opts.dryRun) return work();
  return withC2Lock(ctx, "gjc plugin install", work);
}
