/**
 * `gjc plugin audit <source|name>`: the capability model and findings of a bundle. A source
 * is fetched and planned exactly as install would (the same fetch, the same compile/plan, the
 * same refusal of an invalid bundle) and nothing is installed or run; a name is an installed
 * bundle, audited from its installed copy.
 */
import { resolve } from "node:path";
import type { Context } from "../core/context.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { entryExists } from "../families/detect.ts";
import type { FetchedSource } from "../sources/types.ts";
import type { Scope } from "../install/registry-types.ts";
import { auditFindings, type AuditFinding } from "./findings.ts";
import { positionOfPointer, type TextPosition } from "../core/json-position.ts";
import { RECORD_FILE } from "../c2store/paths.ts";
import type { CapabilityModel } from "../families/capability-model.ts";
import type { AuditLevel } from "./rules.ts";
import { planAuditRoot, type Planned } from "../families/root-capabilities.ts";
import { integrityOf } from "../bundle/content-integrity.ts";
import type { BundleSigner, SignatureCheck } from "../signing/check.ts";

export interface LocatedFinding extends AuditFinding {
  /** Where `at.pointer` starts in `at.file` (line 1 column 1 when the file has no such value). */
  region: TextPosition;
}

export interface AuditSubject {
  /** `source`: fetched and planned, not installed; `installed`: the installed copy. */
  kind: "source" | "installed";
  display: string;
  family: "c2" | "gjc";
  name: string;
  version: string;
  /** GJC scope of an installed bundle; C2 bundles are user-wide. */
  scope: Scope | null;
  /** The commit audited (git and GitHub sources, and bundles installed from them); null otherwise. */
  commit: string | null;
  /** The content integrity audited: what `install --integrity` and a lock entry name. */
  integrity: string;
}

export interface AuditReport {
  subject: AuditSubject;
  capabilities: CapabilityModel;
  findings: LocatedFinding[];
  counts: Record<AuditLevel, number>;
  /** Who signed it: a source's signature checked as install checks it; an installed bundle's recorded signer. */
  signature: SignatureCheck;
  /** With `against`: the installed bundle's capabilities → this one's. */
  capabilityDiff?: import("../store/grants-diff.ts").GrantedCapabilityDiff;
  against?: { name: string; display: string };
  /** Installed bundles: the sandbox grants the user recorded for it (gjc plugin allow). */
  grants?: import("../store/grants-recorded.ts").RecordedGrants;
}

export interface AuditRequest {
  target: string;
  user?: boolean;
  project?: boolean;
  catalog?: string;
  sha256?: string;
  /** An installed bundle to diff against (scope from user/project, like a name target). */
  against?: string;
  /** `--fail-on` (src/audit/fail-on.ts): which findings make the audit fail. */
  failOn?: string;
}

/** An audit with its `--fail-on` verdict: `failing` findings match it (the verb then exits 3). */
export type GatedAudit = AuditReport & { failOn: string | null; failing: number };

function locate(findings: AuditFinding[], text: Planned["text"]): LocatedFinding[] {
  const locators = new Map<string, (p: string) => TextPosition>();
  return findings.map((f) => {
    let at = locators.get(f.at.file);
    if (!at) {
      const bytes = text(f.at.file);
      // The one JSON-pointer locator (src/core/json-position.ts, also behind validate --format github).
      const decoded = bytes ? new TextDecoder().decode(bytes) : undefined;
      at = decoded !== undefined ? (p: string) => positionOfPointer(decoded, p) : () => ({ line: 1, column: 1 });
      locators.set(f.at.file, at);
    }
    return { ...f, region: at(f.at.pointer) };
  });
}

function report(
  subject: Omit<AuditSubject, "family" | "name" | "version" | "integrity">,
  planned: Planned,
  signature: SignatureCheck,
): AuditReport {
  const findings = locate(auditFindings(planned.model), planned.text);
  const counts: Record<AuditLevel, number> = { error: 0, warning: 0, note: 0 };
  for (const f of findings) counts[f.level]++;
  const m = planned.model;
  return {
    subject: { ...subject, family: m.family, name: m.name, version: m.version, integrity: integrityOf(planned.files) },
    capabilities: m,
    findings,
    counts,
    signature,
  };
}

/** A bare bundle name (no path separator, no URL, not an existing path) means an installed bundle. */
function isInstalledName(ctx: Context, target: string): boolean {
  return (
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(target) &&
    !entryExists(resolve(ctx.cwd, target)) &&
    !/\.(?:tgz|tar|tar\.gz)$/.test(target)
  );
}

/** `gjc plugin audit`: the audit of the target, held to `--fail-on` (refused before anything is fetched when malformed). */
export async function auditGated(ctx: Context, req: AuditRequest): Promise<GatedAudit> {
  const { parseFailOn } = await import("./fail-on.ts");
  const matches = parseFailOn(req.failOn);
  const report = await auditTarget(ctx, req);
  return { ...report, failOn: req.failOn ?? null, failing: matches ? report.findings.filter(matches).length : 0 };
}

export async function auditTarget(ctx: Context, req: AuditRequest): Promise<AuditReport> {
  // Loaded only when a scope flag was given (the resolver module brings the store with it).
  const scope = req.user || req.project ? (await import("../store/resolve.ts")).scopeFromFlags(req) : undefined;
  const audited =
    req.catalog === undefined && isInstalledName(ctx, req.target)
      ? await auditInstalled(ctx, req.target, scope)
      : await withPlannedSource(ctx, req, (planned, display, commit, signature) =>
          report({ kind: "source", display, scope: null, commit }, planned, signature),
        );
  if (req.against === undefined) return audited;
  const base = await installedRoot(ctx, req.against, scope);
  const [{ diffCapabilities }, { carriedGrants }, { recordedGrants }] = await Promise.all([
    import("../families/capability-diff.ts"),
    import("../store/grants-diff.ts"),
    import("../store/grants-recorded.ts"),
  ]);
  const installed = (await planAuditRoot(base.dir)).model;
  const capabilityDiff = diffCapabilities(installed, audited.capabilities);
  const grants = carriedGrants(
    capabilityDiff,
    audited.capabilities,
    recordedGrants(ctx, installed.family, base.scope ?? "user", installed.name),
  );
  return {
    ...audited,
    against: { name: req.against, display: base.display },
    capabilityDiff: grants ? { ...capabilityDiff, grants } : capabilityDiff,
  };
}

/** Fetches a source the way install does and plans it; the scratch copy is always removed. */
async function withPlannedSource<T>(
  ctx: Context,
  req: AuditRequest,
  use: (planned: Planned, display: string, commit: string | null, signature: SignatureCheck) => T,
): Promise<T> {
  const maybeEntry = req.catalog !== undefined || /^[a-z0-9][a-z0-9.-]*@/.test(req.target);
  const catalogs = maybeEntry ? await import("../c2store/catalog-install.ts") : undefined;
  const entry = !catalogs
    ? undefined
    : req.catalog !== undefined
      ? { entryName: req.target, catalogPath: req.catalog }
      : catalogs.isCatalogSpec(ctx, req.target);
  if (catalogs && entry) {
    const { withCatalogEntry } = catalogs;
    if (req.sha256 !== undefined)
      throw usageError(
        "--sha256 does not apply to catalog entries; the catalog's own sha256 is checked.",
        "Drop --sha256, or audit the archive file directly.",
        "invalid_option_value",
      );
    return withCatalogEntry(ctx, entry, async (fetched: FetchedSource) =>
      use(
        await planAuditRoot(fetched.dir),
        `${entry.entryName}@${entry.catalogPath}`,
        commitOf(fetched.record),
        await sourceSignature(ctx, fetched),
      ),
    );
  }
  const { fetchSpec } = await import("../install/fetch-source.ts");
  const fetched = await fetchSpec(ctx, req.target, (m) => ctx.log.progress(m), req.sha256);
  try {
    return use(
      await planAuditRoot(fetched.dir),
      fetched.display,
      commitOf(fetched.record),
      await sourceSignature(ctx, fetched),
    );
  } finally {
    await fetched.cleanup();
  }
}

/** The installed copy: C2 by name or id, or a GJC bundle of the given (or the only) scope. */
async function auditInstalled(ctx: Context, name: string, scope: Scope | undefined): Promise<AuditReport> {
  const found = await installedRoot(ctx, name, scope);
  const planned = await planAuditRoot(found.dir);
  const signature: SignatureCheck = found.signer
    ? { status: found.signer.identity !== undefined ? "trusted" : "unknown-signer", signer: found.signer }
    : { status: "unsigned" };
  const audited = report(
    { kind: "installed", display: found.display, scope: found.scope, commit: found.commit },
    { ...planned, model: withPassEnv(planned.model, found.passEnv) },
    signature,
  );
  return withGrants(ctx, audited);
}

/** An installed bundle's report with its recorded grants and the findings about them. */
async function withGrants(ctx: Context, r: AuditReport): Promise<AuditReport> {
  const [{ recordedGrants }, { grantFindings }] = await Promise.all([
    import("../store/grants-recorded.ts"),
    import("./grant-findings.ts"),
  ]);
  const grants = recordedGrants(ctx, r.subject.family, r.subject.scope ?? "user", r.subject.name);
  const extra = grantFindings(ctx, r.subject.family, r.subject.name, grants).map((f) => ({
    ...f,
    region: { line: 1, column: 1 },
  }));
  const counts = { ...r.counts };
  for (const f of extra) counts[f.level]++;
  return { ...r, grants, findings: [...r.findings, ...extra], counts };
}

/**
 * Host variables the user let through with `gjc plugin trust <name> --pass-env X` (the record's
 * pass_env; names only): they reach the runtime and the language servers (src/c2host), so they
 * are listed as passed to each of them. Only in the report of an installed bundle: the model
 * trust digests and diffs compare is the bundle's own, which pass_env is not part of.
 */
function withPassEnv(model: CapabilityModel, passEnv: readonly string[]): CapabilityModel {
  if (passEnv.length === 0) return model;
  const passed = model.processes
    .filter((p) => p.kind === "c2-runtime" || p.kind === "language-server")
    .flatMap((p) =>
      passEnv.map((name, i) => ({
        owner: p.id,
        name,
        mode: "passes" as const,
        from: name,
        at: { file: RECORD_FILE, pointer: `/pass_env/${i}` },
      })),
    );
  return { ...model, env: [...model.env, ...passed] };
}

export interface InstalledRoot {
  dir: string;
  /** A C2 record's pass_env (host variables the user chose to pass); empty for GJC bundles. */
  passEnv: string[];
  display: string;
  scope: Scope | null;
  /** The commit it was installed from (git and GitHub sources). */
  commit: string | null;
  /** The key that signed the installed content, as recorded at install. */
  signer?: BundleSigner;
}

/** The commit a source record names (git and GitHub), else null. */
function commitOf(record: object): string | null {
  const sha = (record as { sha?: unknown }).sha;
  return typeof sha === "string" && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}

/** A fetched source's signature, judged as install judges it (a bad one is refused the same way). */
async function sourceSignature(ctx: Context, fetched: FetchedSource): Promise<SignatureCheck> {
  const { locateSignature } = await import("../signing/locate.ts");
  const signature = locateSignature(fetched);
  if (!signature) return { status: "unsigned" };
  const { judgeBundle } = await import("../store/bundle-digest.ts");
  const { checkBundleSignature } = await import("../signing/check.ts");
  const judged = await judgeBundle(fetched.dir);
  return checkBundleSignature(ctx, { name: judged.name, integrity: judged.integrity, signature, scope: "user" });
}

/** Finds an installed bundle's directory: C2 first unless a GJC scope was named. */
export async function installedRoot(ctx: Context, name: string, scope: Scope | undefined): Promise<InstalledRoot> {
  const { scopeRoot } = await import("../families/gjc/layout.ts");
  const { tryReadRegistry, readRegistry } = await import("../install/registry.ts");
  if (scope) {
    const registry = readRegistry(scopeRoot(ctx, scope), scope, ctx);
    const entry = registry.plugins.find((p) => p.name === name);
    if (!entry) {
      const { notInstalled } = await import("../install/not-installed.ts");
      throw notInstalled(name, scope);
    }
    return {
      dir: entry.pluginRoot,
      passEnv: [],
      display: `${entry.name} ${entry.version} (${scope} scope)`,
      scope,
      commit: commitOf(entry.source),
      ...(entry.signer ? { signer: entry.signer } : {}),
    };
  }
  const { c2Layout, bundleDir } = await import("../c2store/paths.ts");
  const { findRecord } = await import("../c2store/records.ts");
  const layout = c2Layout(ctx);
  const record = entryExists(layout.plugins) ? findRecord(layout, name) : undefined;
  if (record) {
    const { signerOfRecord } = await import("../c2store/record-signer.ts");
    return {
      dir: bundleDir(layout, record.id),
      passEnv: record.pass_env ?? [],
      display: `${record.name} ${record.version} (C2, ${record.id})`,
      scope: null,
      commit: commitOf(record.source.resolved),
      ...(record.signer ? { signer: signerOfRecord(record.signer) } : {}),
    };
  }
  const scopes = (["user", "project"] as Scope[]).filter((s) => {
    const read = tryReadRegistry(scopeRoot(ctx, s), s, ctx);
    return read.ok && read.registry.plugins.some((p) => p.name === name);
  });
  if (scopes.length === 1) return installedRoot(ctx, name, scopes[0]);
  if (scopes.length > 1)
    throw usageError(
      `${name} is installed in both GJC scopes.`,
      `Say which: gjc plugin audit ${name} --user, or --project.`,
      "scope_required",
    );
  throw new GjcError({
    code: "not_installed",
    message: `No installed bundle is named ${name}.`,
    hint: "Pass a bundle directory, archive, git URL or catalog entry to audit it before installing, or check the name with gjc plugin list.",
    exit: ExitCode.failed,
  });
}

/** The capability model of an installed bundle (diffs, trust); undefined when it is not installed. */
export async function installedCapabilities(
  ctx: Context,
  name: string,
  scope: Scope | undefined,
): Promise<CapabilityModel> {
  const found = await installedRoot(ctx, name, scope);
  return (await planAuditRoot(found.dir)).model;
}
