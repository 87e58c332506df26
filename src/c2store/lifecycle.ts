/**
 * The C2 side of the shared plugin verbs. `plugin install|uninstall|enable|disable|list|
 * inspect|verify` dispatch here for C2 bundles; `plugin trust|untrust` are C2-only. Every
 * function returns data or throws GjcError; none prints.
 */
import type { Code } from "../core/codes.ts";
import { trustStateOf, type TrustState } from "../families/c2/trust.ts";
import { liveFailures } from "../store/live-registry.ts";
import { commandSurface } from "../families/c2/command-surface.ts";
import { missingServices } from "../families/c2/host-services.ts";
import { lspLaunchPlan, type LspLaunchPlan } from "../families/c2/lsp-launch.ts";
import { supportedContributions } from "../families/c2/contributions.ts";
import { join } from "node:path";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { isDeniedEnvName } from "../process/env.ts";
import type { FetchedSource } from "../sources/types.ts";
import { runRecordChanging } from "./hooks.ts";
import { installFetched, type C2InstallResult } from "./install.ts";
import { signerOfRecord } from "./record-signer.ts";
import { retireC2Bundle } from "./retire.ts";
import { cleanLeftovers } from "./leftovers.ts";
import { withC2Lock } from "./lock.ts";
import { bundleDir, c2Layout, policyKey, userDataDir, type C2Layout } from "./paths.ts";
import { resolvePolicy, type EffectivePolicy } from "./policy.ts";
import { openPolicy, type Recovery } from "./policy-store.ts";
import type { ForeignRecord } from "./foreign-record.ts";
import { requireRecord, scanRecords, toInstalled, writeRecord, type BrokenRecord } from "./records.ts";
import { refreshRecordsIndex } from "./records-index.ts";
import { storedFiles, type InstalledRecord } from "./record.ts";
import { verifyFiles } from "../store/verify.ts";
import type { BundleRow, InspectBundle, UninstallResult, VerifiedBundle } from "../store/documents.ts";
import { c2DocSource } from "./install.ts";
import { componentsOf } from "./record-components.ts";

export type { C2InstallResult } from "./install.ts";
export { installC2FromCatalog } from "./catalog-install.ts";
export { upgradeC2 } from "./upgrade.ts";

/** `gjc plugin install <source>` for a C2 bundle the sources layer has fetched. */
export function installC2(
  ctx: Context,
  opts: {
    fetched: FetchedSource;
    force?: boolean;
    dryRun?: boolean;
    expectIntegrity?: string;
    requireSigned?: boolean;
    acceptSigner?: boolean;
  },
): Promise<C2InstallResult> {
  return installFetched(ctx, opts);
}

/** C2 bundles are user-wide; the error the shared verbs give for `--project`. */
export function c2ProjectScopeError(name?: string): GjcError {
  return new GjcError({
    code: "unsupported_scope",
    message: "C2 bundles are installed user-wide; --project does not apply to them.",
    hint: `Install with --user, then choose per project with "gjc plugin policy plan ${name ?? "<plugin>"} --state enabled|disabled|inherit --project <dir>".`,
    exit: ExitCode.usage,
  });
}

export type C2UninstallResult = UninstallResult & { family: "c2"; c2: NonNullable<UninstallResult["c2"]> };

/**
 * `gjc plugin uninstall <name> [--keep-data]`: stops whatever runs for the bundle (runtime
 * hooks), forgets its user and project policy, removes the bundle (one rename is the commit
 * point) and, unless kept, its data directory.
 */
export async function uninstallC2(
  ctx: Context,
  name: string,
  opts: { keepData?: boolean; dryRun?: boolean } = {},
): Promise<C2UninstallResult> {
  const layout = c2Layout(ctx);
  const work = async (): Promise<C2UninstallResult> => {
    if (!opts.dryRun) cleanLeftovers(layout);
    const record = requireRecord(layout, name);
    const result: C2UninstallResult = {
      family: "c2",
      status: opts.dryRun ? "would-uninstall" : "uninstalled",
      name: record.name,
      version: record.version,
      scope: "user",
      files: record.files.map((f) => f.path),
      warnings: [],
      c2: {
        id: record.id,
        bundleDir: bundleDir(layout, record.id),
        dataDir: userDataDir(layout, record.id),
        dataKept: Boolean(opts.keepData),
        policyForgotten: false,
      },
    };
    if (opts.dryRun) return result;
    result.c2.policyForgotten = await retireC2Bundle(ctx, layout, record, {
      keepData: opts.keepData,
      warnings: result.warnings,
    });
    refreshRecordsIndex(layout);
    return result;
  };
  if (opts.dryRun) return work();
  return withC2Lock(ctx, "gjc plugin uninstall", work);
}

export interface C2FlagResult {
  family: "c2";
  id: string;
  name: string;
  field: "enabled" | "trusted";
  value: boolean;
  changed: boolean;
  enabled: boolean;
  trusted: boolean;
  /** Host variables the user passed to this plugin by name (trust --pass-env; untrust clears them). */
  passEnv: string[];
  notices: { code: Code; message: string }[];
  /** trust over a bundle that needed re-trust: what changed since the previous trust. */
  capabilityDiff?: import("../families/capability-diff.ts").TrustDiff;
}

async function setFlag(
  ctx: Context,
  name: string,
  field: "enabled" | "trusted",
  value: boolean,
  passEnv?: string[],
): Promise<C2FlagResult> {
  const layout = c2Layout(ctx);
  return withC2Lock(
    ctx,
    `gjc plugin ${field === "enabled" ? (value ? "enable" : "disable") : value ? "trust" : "untrust"}`,
    async () => {
      cleanLeftovers(layout);
      const record = requireRecord(layout, name);
      // Trusting with --pass-env replaces the list; untrusting forgets it; enable/disable keep it.
      const { pass_env: _previous, ...rest } = record;
      const nextPassEnv =
        field === "trusted" ? (value ? (passEnv ?? record.pass_env ?? []) : []) : (record.pass_env ?? []);
      let next: InstalledRecord = {
        ...rest,
        [field]: value,
        ...(nextPassEnv.length > 0 ? { pass_env: nextPassEnv } : {}),
      };
      // Capability-bound trust (src/families/c2/trust.ts): trust records what it approved; untrust forgets it.
      const binding =
        field === "trusted" ? await (await import("./trust-record.ts")).bindTrust(layout, next, value) : undefined;
      if (binding) next = binding.record;
      const changed =
        record[field] !== value ||
        (record.pass_env ?? []).join("\0") !== nextPassEnv.join("\0") ||
        (binding?.changed ?? false);
      if (changed) {
        // Turning something off stops it first (the runtime registers these hooks).
        if (!value) await runRecordChanging(ctx, toInstalled(layout, next));
        writeRecord(layout, next);
        refreshRecordsIndex(layout);
      }
      const notices: C2FlagResult["notices"] = [];
      const runs = record.manifest.codetwo.runtime !== null || record.manifest.codetwo.languageServers.length > 0;
      if (field === "enabled" && value && !next.trusted && runs) {
        notices.push({
          code: "runtime.requires_trust",
          message: `${record.name} is enabled, but its process runs only after "gjc plugin trust ${record.name}".`,
        });
      }
      if (field === "trusted" && value && runs) {
        notices.push({
          code: "trusted",
          message: `${record.name} may now start its process when one of its commands is invoked; it runs with your permissions.`,
        });
      }
      if (nextPassEnv.length > 0) {
        notices.push({
          code: "pass_env",
          message: `${record.name} also sees these host variables: ${nextPassEnv.join(", ")}.`,
        });
      }
      if (binding?.diff)
        notices.push({
          code: "trust_renewed",
          message: `${record.name} changed since it was trusted: ${binding.summary}. Trusted again with these capabilities.`,
        });
      return {
        family: "c2",
        id: record.id,
        name: record.name,
        field,
        value,
        changed,
        enabled: next.enabled,
        trusted: next.trusted,
        passEnv: nextPassEnv,
        notices,
        ...(binding?.diff ? { capabilityDiff: binding.diff } : {}),
      };
    },
  );
}

/** `gjc plugin enable|disable <name>` for C2: the install-wide switch, separate from trust. */
export function setC2Enabled(ctx: Context, name: string, enabled: boolean): Promise<C2FlagResult> {
  return setFlag(ctx, name, "enabled", enabled);
}

/**
 * Whether a C2 bundle's processes may run at all. The store's change alone: the verb (`gjc
 * plugin trust|untrust`, setBundleTrusted in src/app/trust.ts) wraps it as a recorded change.
 */
export function setC2Trusted(ctx: Context, name: string, trusted: boolean, passEnv?: string[]): Promise<C2FlagResult> {
  const denied = passEnv?.filter(isDeniedEnvName) ?? [];
  if (denied.length > 0) {
    return Promise.reject(
      new GjcError({
        code: "security_policy",
        message: `${denied.join(", ")} may not be passed to a plugin: credentials (tokens, keys, secrets, cloud settings) and loader switches (NODE_OPTIONS, LD_*, DYLD_*…) never reach plugin processes.`,
        hint: "Pass only the variables the plugin needs that hold no secret (for example DOCKER_HOST); give it credentials through its own configuration.",
        exit: ExitCode.refused,
      }),
    );
  }
  return setFlag(ctx, name, "trusted", trusted, passEnv);
}

export type C2ListRow = BundleRow & { family: "c2"; c2: NonNullable<BundleRow["c2"]> };
type C2Component = NonNullable<BundleRow["c2"]>["components"][number];

/**
 * The record's diagnostics as they stand now: `runtime.requires_trust` says the runtime runs
 * only once trusted, so it is shown only while the bundle is untrusted.
 */
function currentDiagnostics(record: InstalledRecord): InstalledRecord["diagnostics"] {
  return trustStateOf(record) === "trusted"
    ? record.diagnostics.filter((d) => d.code !== "runtime.requires_trust")
    : record.diagnostics;
}

function componentsWithStatus(record: InstalledRecord, effective: EffectivePolicy): C2Component[] {
  const key = policyKey(record.id);
  return componentsOf(record.components).map((c) => {
    let effectiveStatus: C2Component["effectiveStatus"] = c.status;
    // ui and connector summaries are named `<id>@<slot|provider>`; policy ids use the bare id.
    const policyId =
      c.kind === "ui" || c.kind === "connector" || c.kind === "lsp"
        ? `${key}:${c.kind}:${c.name.split("@")[0]}`
        : undefined;
    if (policyId && effective.components[policyId] === "disabled") effectiveStatus = "disabled";
    else if (c.status === "requires-trust" && trustStateOf(record) === "trusted") effectiveStatus = "ready";
    return { kind: c.kind, name: c.name, path: c.path, status: c.status, effectiveStatus };
  });
}

function row(
  record: InstalledRecord,
  recovery: { doc: any; recovery: Recovery },
  runtimeFailures: C2ListRow["c2"]["runtimeFailures"],
): C2ListRow {
  const effective = resolvePolicy(recovery, record);
  return {
    family: "c2",
    name: record.name,
    version: record.version,
    scope: "user",
    enabled: record.enabled,
    quarantined: record.quarantine !== null,
    source: c2DocSource(record.source),
    installedAt: record.installed_at,
    updatedAt: record.updated_at,
    ...(record.signer ? { signer: signerOfRecord(record.signer) } : {}),
    c2: {
      id: record.id,
      trusted: record.trusted,
      /** untrusted | trusted | needs-retrust (trusted, but an upgrade changed its capabilities). */
      trustState: trustStateOf(record),
      hasRuntime: record.manifest.codetwo.runtime !== null,
      contributions: record.contributions,
      // Supported only: stored-but-unsupported scenes, pipelines, hooks and monitors are not counted.
      totalContributions: supportedContributions(record.contributions),
      components: componentsWithStatus(record, effective),
      diagnostics: {
        errors: currentDiagnostics(record).filter((d) => d.severity === "error").length,
        warnings: currentDiagnostics(record).filter((d) => d.severity === "warning").length,
      },
      quarantine: record.quarantine && {
        code: record.quarantine.reason,
        files: record.quarantine.files,
        detectedAt: record.quarantine.at,
      },
      policy: { state: effective.state, source: effective.stateSource },
      missingServices: record.manifest.codetwo.runtime ? missingServices(record.manifest.codetwo.runtime.inject) : [],
      commands: commandSurface(record.manifest.codetwo.commands),
      runtimeFailures,
    },
  };
}

/** `gjc plugin list` (C2 part): every installed bundle, plus directories with a broken record. */
export function listC2(ctx: Context): {
  plugins: C2ListRow[];
  broken: BrokenRecord[];
  foreign: ForeignRecord[];
  recovery: Recovery;
} {
  const layout = c2Layout(ctx);
  const view = openPolicy(layout);
  const { records, broken, foreign } = scanRecords(layout);
  // A runtime that failed in a running host is failed here too (c2host/live-registry.ts).
  return {
    plugins: records.map((r) => row(r, view, liveFailures(layout.root, r.id))),
    broken,
    foreign,
    recovery: view.recovery,
  };
}

export type C2Inspect = InspectBundle & { family: "c2"; c2: NonNullable<InspectBundle["c2"]> };

/** `gjc plugin inspect <name>` (C2). */
export function inspectC2(ctx: Context, name: string): C2Inspect {
  const layout = c2Layout(ctx);
  const record = requireRecord(layout, name);
  const view = openPolicy(layout);
  const { gjc: _none, ...base } = row(record, view, liveFailures(layout.root, record.id));
  return {
    ...base,
    root: bundleDir(layout, record.id),
    description: record.manifest.description ?? null,
    files: storedFiles(record),
    bytes: record.total_bytes,
    c2: {
      ...base.c2,
      dataDir: userDataDir(layout, record.id),
      identity: record.source.identity,
      spec: record.source.spec,
      // Records from before catalogs have none: the document says null, as for any other non-catalog source.
      catalog: record.source.catalog ?? null,
      runtime: record.manifest.codetwo.runtime,
      diagnosticsList: currentDiagnostics(record),
      effectivePolicy: resolvePolicy(view, record),
      /** Host variables the user passed to this plugin by name (`gjc plugin trust --pass-env`). */
      passEnv: record.pass_env ?? [],
      /**
       * How each language server is launched: the declared args and env verbatim, and the
       * variables gjc exports (PLUGIN_ROOT, PLUGIN_DATA; the project directory stays
       * `${PLUGIN_PROJECT_DIR}` until a server starts in one).
       */
      languageServers: record.manifest.codetwo.languageServers.map((server) => ({
        server: server.id,
        languages: [...server.languages],
        launch: lspLaunchPlan(
          { bundleDir: bundleDir(layout, record.id), dataDir: userDataDir(layout, record.id) },
          server,
          "${PLUGIN_PROJECT_DIR}",
          ctx.env,
        ),
      })),
    },
  };
}

export interface C2VerifyResult {
  ok: boolean;
  bundles: VerifiedBundle[];
}

/**
 * `gjc plugin verify [<name>]` (C2): re-hashes installed bundles. Drift quarantines the bundle
 * in its record (the runtime refuses a quarantined bundle); a clean verify lifts it.
 */
export async function verifyC2(ctx: Context, name?: string): Promise<C2VerifyResult> {
  const layout = c2Layout(ctx);
  return withC2Lock(ctx, "gjc plugin verify", async () => {
    cleanLeftovers(layout);
    const records = name === undefined ? scanRecords(layout).records : [requireRecord(layout, name)];
    const bundles: C2VerifyResult["bundles"] = [];
    let rewrote = false;
    for (const record of records) {
      const check = verifyFiles(bundleDir(layout, record.id), storedFiles(record));
      const ok = check.ok;
      if (!ok) {
        writeRecord(layout, {
          ...record,
          quarantine: {
            reason: "runtime_mismatch",
            files: check.problems.map((f) => `${f.kind}:${f.path}`),
            at: ctx.now().toISOString(),
          },
        });
        rewrote = true;
      } else if (record.quarantine !== null) {
        writeRecord(layout, { ...record, quarantine: null });
        rewrote = true;
      }
      const change = !ok
        ? record.quarantine === null
          ? "quarantined"
          : "none"
        : record.quarantine !== null
          ? "cleared"
          : "none";
      bundles.push({
        family: "c2",
        name: record.name,
        version: record.version,
        scope: "user",
        ok,
        checked: check.checked,
        problems: check.problems,
        quarantined: !ok,
        change,
        c2: { id: record.id },
      });
    }
    if (rewrote) refreshRecordsIndex(layout);
    return { ok: bundles.every((b) => b.ok), bundles };
  });
}
