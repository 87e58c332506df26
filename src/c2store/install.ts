/**
 * C2 install: the validate pipeline (planC2Bundle) on the fetched bundle root, then the
 * verbatim collected bytes, with their modes, staged beside the destination and committed by
 * rename. Data-only: nothing in the bundle is executed, no script, no runtime.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFiles } from "../store/files.ts";
import { fsyncDir, writeFileAtomic } from "../bundle/atomic-fs.ts";
import type { Context } from "../core/context.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { installedId } from "../families/c2/ids.ts";
import { planC2Bundle, type C2Plan } from "../families/c2/validate.ts";
import type { ComponentSummary } from "../families/types.ts";
import type { FetchedSource } from "../sources/types.ts";
import { crashPoint } from "../store/crash-hook.ts";
import { c2Capabilities } from "../audit/extract-c2.ts";
import { trustedCapabilities } from "../audit/trust.ts";
import { cleanLeftovers, uniqueSuffix } from "./leftovers.ts";
import { withC2Lock } from "./lock.ts";
import { bundleDir, bundleHome, c2Layout, userDataDir, RECORD_FILE, type C2Layout } from "./paths.ts";
import { RECORD_SCHEMA_VERSION, serializeRecord, storedFiles, type InstalledRecord, type RecordSource } from "./record.ts";
import { readRecord } from "./records.ts";
import { refreshRecordsIndex } from "./records-index.ts";
import { c2SourceIdentity, c2SourceKind, sourceSpecOf } from "./source-identity.ts";

export const REQUIRES_TRUST_NOTICE = "ships a process. It runs only after you mark the plugin trusted";

export type InstallStatus = "installed" | "updated" | "unchanged" | "would_install" | "would_update";

export interface C2InstallResult {
  family: "c2";
  status: InstallStatus;
  id: string;
  name: string;
  version: string;
  previous_version: string | null;
  bundle_dir: string;
  data_dir: string;
  enabled: boolean;
  trusted: boolean;
  source: { kind: string; display: string; identity: string; spec: string };
  files: number;
  total_bytes: number;
  contributions: Record<string, number>;
  components: ComponentSummary[];
  diagnostics: Diagnostic[];
  /** Lines the verb prints on stderr (`runtime.requires_trust` and the like). */
  notices: { code: string; message: string }[];
  /** Dry runs over an installed bundle: the capability diff installed → candidate (src/audit). */
  capabilityDiff?: import("../audit/install-diff.ts").InstallCapabilityDiff;
}

export interface InstallOptions {
  fetched: FetchedSource;
  force?: boolean;
  dryRun?: boolean;
  /** Catalog installs: the identity, label and default enablement come from the entry. */
  /** Upgrades: the id the bundle must keep (a renamed bundle is refused, not installed beside). */
  expectId?: string;
  catalog?: { path: string; name: string; displayName: string; entry: string; identity?: string; defaultEnabled: boolean; expectVersion: string };
}

/** The refusal install gives for a plan with errors (audit refuses the same way). */
export function invalidBundle(plan: C2Plan): GjcError {
  const errors = plan.diagnostics.filter((d) => d.severity === "error");
  const first = errors[0];
  return new GjcError({
    code: first?.code ?? "invalid_manifest",
    message: `The C2 bundle at ${plan.dir} cannot be installed: ${first ? `${first.path}: ${first.message}` : "it is invalid"}${errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : ""}.`,
    hint: first?.hint ?? `Run "gjc plugin validate ${plan.dir}" to see every problem.`,
    details: { diagnostics: plan.diagnostics },
    exit: first && ["unsafe_path", "special_file", "security_policy"].includes(first.code) ? ExitCode.refused : ExitCode.failed,
  });
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
    renameSync(stage, home);
  } catch (error) {
    if (backup) renameSync(backup, home);
    throw error;
  }
  fsyncDir(layout.plugins);
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

/**
 * Installs (or, with `force`, replaces) a C2 bundle from a fetched source. The same id
 * with identical content is a no-op (`unchanged`); different content needs `force`. An update
 * keeps `enabled`/`trusted` and `installed_at`; a new install starts enabled (or the catalog
 * entry's defaultEnabled) and untrusted.
 */
export async function installFetched(ctx: Context, opts: InstallOptions): Promise<C2InstallResult> {
  const { fetched } = opts;
  const plan = planC2Bundle(fetched.dir, { keepContents: !opts.dryRun });
  if (!plan.ok || !plan.manifest || plan.collection.aborted) throw invalidBundle(plan);
  const manifest = plan.manifest;
  if (opts.catalog) {
    if (manifest.name !== opts.catalog.entry) {
      throw new GjcError({ code: "catalog_mismatch", message: `The catalog entry ${opts.catalog.entry} points at a bundle named ${manifest.name}.`, hint: "The entry name and the bundle's plugin.json name must be equal; fix the catalog.", exit: ExitCode.refused });
    }
    if (manifest.version !== opts.catalog.expectVersion) {
      throw new GjcError({ code: "catalog_mismatch", message: `The catalog says ${opts.catalog.entry} ${opts.catalog.expectVersion}, but the bundle is version ${manifest.version}.`, hint: "The entry version and the bundle's plugin.json version must be equal; fix the catalog.", exit: ExitCode.refused });
    }
  }
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
  const manifestJson = JSON.stringify(manifest);
  const notices: C2InstallResult["notices"] = [];
  const work = async (): Promise<C2InstallResult> => {
    if (!opts.dryRun) cleanLeftovers(layout);
    const previous = readRecord(layout, id);
    const prior = previous && !("problem" in previous) ? previous : undefined;
    const now = ctx.now().toISOString();
    const record: InstalledRecord = {
      schema_version: RECORD_SCHEMA_VERSION,
      id,
      name: manifest.name,
      version: manifest.version,
      standard_version: "1.2.0",
      enabled: prior ? prior.enabled : (opts.catalog?.defaultEnabled ?? true),
      trusted: prior ? prior.trusted : false,
      scope: "user",
      source,
      installed_at: prior?.installed_at ?? now,
      updated_at: now,
      files,
      total_bytes: plan.collection.totalBytes,
      contributions: { ...plan.contributions.counts },
      components: plan.contributions.components,
      diagnostics: plan.diagnostics,
      quarantine: null,
      manifest,
      // Capability-bound trust (src/audit/trust.ts): what this content can do, and what was trusted before.
      capabilities: trustedCapabilities(c2Capabilities({ ...plan, manifest })),
      ...(prior?.trusted_capabilities ? { trusted_capabilities: prior.trusted_capabilities } : {}),
    };
    let status: InstallStatus;
    if (prior && sameContent(prior, files, manifestJson) && prior.quarantine === null) status = "unchanged";
    else if (previous) status = opts.dryRun ? "would_update" : "updated";
    else status = opts.dryRun ? "would_install" : "installed";
    if (previous && status !== "unchanged" && !opts.force) {
      throw new GjcError({
        code: "already_installed",
        message: `${manifest.name} is already installed from this source (${id}${prior ? `, version ${prior.version}` : ""}) with different content.`,
        hint: "Add --force to replace it (enabled/trusted are kept), or run gjc plugin upgrade.",
        exit: ExitCode.failed,
      });
    }
    if (!record.trusted && (manifest.codetwo.runtime !== null || manifest.codetwo.languageServers.length > 0)) {
      notices.push({ code: "runtime.requires_trust", message: `${manifest.name} ${REQUIRES_TRUST_NOTICE} (gjc plugin trust ${manifest.name}).` });
    }
    const result: C2InstallResult = {
      family: "c2",
      status,
      id,
      name: manifest.name,
      version: manifest.version,
      previous_version: prior?.version ?? null,
      bundle_dir: bundleDir(layout, id),
      data_dir: userDataDir(layout, id),
      enabled: record.enabled,
      trusted: record.trusted,
      source: { kind: source.kind, display: source.display, identity: source.identity, spec: source.spec },
      files: files.length,
      total_bytes: record.total_bytes,
      contributions: record.contributions,
      components: record.components,
      diagnostics: record.diagnostics,
      notices,
    };
    if (opts.dryRun && prior && status !== "unchanged") result.capabilityDiff = await (await import("../audit/install-diff.ts")).c2InstallDiff(bundleDir(layout, id), { ...plan, manifest });
    if (status === "unchanged" || opts.dryRun) return result;

    const createdPlugins = !existsSync(layout.plugins);
    mkdirSync(layout.plugins, { recursive: true });
    const stage = join(layout.plugins, `.${id}.stage-${uniqueSuffix()}`);
    try {
      stageBundle(stage, plan, record);
      commitStage(ctx, layout, id, stage, previous !== undefined);
    } catch (error) {
      rmSync(stage, { recursive: true, force: true });
      if (createdPlugins) rmSync(layout.plugins, { recursive: true, force: true });
      throw error;
    }
    mkdirSync(userDataDir(layout, id), { recursive: true });
    refreshRecordsIndex(layout);
    return result;
  };
  if (opts.dryRun) return work();
  return withC2Lock(ctx, "gjc plugin install", work);
}
