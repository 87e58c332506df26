/**
 * A scope's installed state in the lock's vocabulary. Everything here reads only: the GJC
 * registry of the scope (fail-closed on damage, through the store's loader) and the installed
 * C2 records. C2 bundles are installed once per user, with per-project policy (c2-notes §7):
 * every one belongs to the user set; the project set holds those the project has explicit
 * policy for (its way of saying it uses them), so a team's project lock brings them along.
 */
import { existsSync } from "node:fs";
import { isAbsolute, sep } from "node:path";
import { pathInside } from "../bundle/path-safety.ts";
import type { Context } from "../core/context.ts";
import { loadScopeRegistry, type RegistryEntry, type RegistrySource, type Scope } from "../install/api.ts";
import type { InstalledRecord } from "../c2store/record.ts";
import { integrityOf } from "../store/integrity.ts";
import type { LockEntry, LockPin, LockSource } from "../store/plugins-lock-schema.ts";

/** One installed bundle: its lock entry plus where its files are on this machine. */
export interface InstalledBundle {
  entry: LockEntry;
  /** The bundle root on disk (GJC content dir, or the C2 bundle dir). */
  root: string;
  files: { path: string; mode: number; sha256: string; bytes: number }[];
  gjc?: RegistryEntry;
  c2?: InstalledRecord;
  /** Project scope, C2: false when the project has no explicit policy for it (not in the project's set). */
  member?: boolean;
}

/** A local path as the lock stores it: relative (`./…`) when inside the project, else as recorded. */
export function portablePath(ctx: Context, scope: Scope, path: string): string {
  if (scope !== "project" || !isAbsolute(path)) return path;
  const rel = pathInside(ctx.cwd, path);
  if (rel === "") return ".";
  if (rel === undefined) return path;
  return `./${rel.split(sep).join("/")}`;
}

export function lockSourceOf(
  ctx: Context,
  scope: Scope,
  s: { kind: string; uri?: string; repository?: string; ref?: string; subpath?: string },
): LockSource {
  const out: LockSource = { kind: s.kind as LockSource["kind"] };
  if (s.kind === "path" || (s.kind === "tarball" && s.uri !== undefined && !/^https:\/\//i.test(s.uri)))
    out.path = portablePath(ctx, scope, s.uri ?? "");
  else if (s.uri !== undefined) out.url = s.uri;
  if (s.repository !== undefined) out.repository = s.repository;
  if (s.ref !== undefined) out.ref = s.ref;
  if (s.subpath !== undefined) out.subpath = s.subpath;
  return out;
}

function pinOf(s: { sha?: string; sha256?: string }): LockPin {
  return s.sha !== undefined ? { commit: s.sha } : s.sha256 !== undefined ? { sha256: s.sha256 } : {};
}

export function gjcBundle(ctx: Context, scope: Scope, e: RegistryEntry): InstalledBundle {
  const files = e.copiedFiles.map((f) => ({ path: f.relativePath, mode: f.mode, sha256: f.sha256, bytes: f.bytes }));
  const source = e.source as RegistrySource;
  return {
    entry: {
      name: e.name,
      family: "gjc",
      version: e.version,
      source: lockSourceOf(ctx, scope, source),
      pin: pinOf(source),
      integrity: integrityOf(files),
      files: files.length,
      enabled: e.enabled,
      disabledSurfaces: [...e.disabledSurfaceIds].sort(),
      ...(e.signer ? { signer: e.signer.fingerprint } : {}),
    },
    root: e.pluginRoot,
    files,
    gjc: e,
  };
}

/** The C2 record's source kinds in the sources layer's (and the lock's) vocabulary. */
const RECORD_KIND = { local: "path", archive: "tarball", git: "git", github: "github" } as const;

export function c2Bundle(
  ctx: Context,
  record: InstalledRecord,
  bundleRoot: string,
  scope: Scope = "user",
): InstalledBundle {
  const files = record.files.map((f) => ({ path: f.path, mode: f.mode & 0o777, sha256: f.sha256, bytes: f.size }));
  const resolved = record.source.resolved as {
    uri?: string;
    repository?: string;
    ref?: string;
    subpath?: string;
    sha?: string;
    sha256?: string;
  };
  const source = lockSourceOf(ctx, scope, { kind: RECORD_KIND[record.source.kind], ...resolved });
  // The catalog link, with what a fresh machine needs to install the entry under the same link.
  if (record.source.catalog)
    source.catalog = {
      path: portablePath(ctx, scope, record.source.catalog.path),
      name: record.source.catalog.name,
      entry: record.source.catalog.entry,
    };
  return {
    entry: {
      name: record.name,
      family: "c2",
      version: record.version,
      source,
      pin: pinOf(resolved),
      integrity: integrityOf(files),
      files: files.length,
      enabled: record.enabled,
      disabledSurfaces: [],
      c2: { trusted: record.trusted },
      ...(record.signer ? { signer: record.signer.fingerprint } : {}),
    },
    root: bundleRoot,
    files,
    c2: record,
  };
}

export const byNameFamily = (a: { name: string; family: string }, b: { name: string; family: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.family < b.family ? -1 : a.family > b.family ? 1 : 0;

/**
 * Every bundle of a scope's set: the GJC bundles of that scope, and the C2 bundles (all of them
 * for the user scope; for the project scope those with explicit project policy). `allC2`
 * (comparing with a lock) adds the project's other C2 bundles with `member: false`, so a lock
 * entry finds its installed bundle whatever its policy is now.
 */
export async function installedBundles(
  ctx: Context,
  scope: Scope,
  o: { allC2?: boolean } = {},
): Promise<InstalledBundle[]> {
  const out = await installedWithoutGrants(ctx, scope, o);
  const { lockGrantsOf } = await import("./grants.ts");
  for (const b of out) {
    const grants = lockGrantsOf(ctx, scope, b.entry.family, b.entry.name);
    if (grants) b.entry.grants = grants;
  }
  return out;
}

async function installedWithoutGrants(ctx: Context, scope: Scope, o: { allC2?: boolean }): Promise<InstalledBundle[]> {
  const { registry } = loadScopeRegistry(ctx, scope);
  const out = registry.plugins.map((e) => gjcBundle(ctx, scope, e));
  const { c2Layout, bundleDir } = await import("../c2store/paths.ts");
  const layout = c2Layout(ctx);
  if (existsSync(layout.plugins)) {
    const { scanRecords } = await import("../c2store/records.ts");
    const members =
      scope === "project"
        ? new Set((await (await import("./c2-policy.ts")).projectPolicy(ctx)).map((p) => p.name))
        : undefined;
    for (const r of scanRecords(layout).records) {
      const member = members === undefined || members.has(r.name);
      if (!member && !o.allC2) continue;
      out.push({ ...c2Bundle(ctx, r, bundleDir(layout, r.id), scope), ...(member ? {} : { member: false }) });
    }
  }
  return out.sort((a, b) => byNameFamily(a.entry, b.entry));
}
