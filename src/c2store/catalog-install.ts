/**
 * `gjc plugin install <name>@<catalog>` and `--catalog <marketplace.json>`: a C2 catalog
 * entry, fetched from its explicit source and installed like any other bundle, with the
 * entry's name and version required to match the bundle's own.
 */
import { lstatSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import {
  CATALOG_FILE,
  parseCatalog,
  readCatalogFile,
  resolveLocalArchive,
  resolveLocalSource,
  type C2CatalogEntry,
} from "../families/c2/catalog.ts";
import type { FetchedSource, NetworkOverrides, SourceSpec } from "../sources/index.ts";
import { withFetchedC2 } from "./fetch.ts";
import { installFetched, type C2InstallResult } from "./install.ts";

/** Accepts marketplace.json itself or the directory holding it. */
export function resolveCatalogFile(ctx: Context, catalogPath: string): string {
  const abs = resolve(ctx.cwd, catalogPath);
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    throw new GjcError({
      code: "missing_catalog",
      message: `The catalog ${catalogPath} does not exist.`,
      hint: "Give the path of a marketplace.json or of the directory holding it.",
      exit: ExitCode.usage,
    });
  }
  return st.isDirectory() ? join(abs, CATALOG_FILE) : abs;
}

/**
 * True when an install argument names a catalog entry: `<plugin name>@<path>` where the path
 * exists. scp-style git addresses (`git@host:owner/repo`) never match: their host part is not
 * an existing path.
 */
export function isCatalogSpec(ctx: Context, spec: string): { entryName: string; catalogPath: string } | undefined {
  const m = /^([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)@(.+)$/.exec(spec);
  if (!m) return undefined;
  try {
    lstatSync(resolve(ctx.cwd, m[2]));
  } catch {
    return undefined;
  }
  return { entryName: m[1], catalogPath: m[2] };
}

function entrySpec(
  entry: C2CatalogEntry,
  catalogFile: string,
): { spec: SourceSpec; expectedSha256?: string; identity?: string } {
  const s = entry.source;
  const raw = `${entry.name}@${catalogFile}`;
  switch (s.kind) {
    case "local": {
      const local = resolveLocalSource(catalogFile, s.path);
      if ("problem" in local) {
        throw new GjcError({
          code: local.code,
          message: `The catalog entry ${entry.name} has source path ${s.path}, which ${local.problem}.`,
          hint: "A local source must be a directory inside the catalog's folder, reached without symlinks.",
          exit: local.code === "unsafe_path" ? ExitCode.refused : ExitCode.failed,
        });
      }
      // c2-notes §4.3: a catalog's local entry is identified by the catalog file and entry name.
      return { spec: { kind: "path", raw, path: local.dir }, identity: `${catalogFile}:${entry.name}` };
    }
    case "github": {
      const [owner, repo] = s.repository.split("/");
      return {
        spec: {
          kind: "github",
          raw,
          owner,
          repo,
          ...(s.ref ? { ref: s.ref } : {}),
          ...(s.sha ? { pin: s.sha } : {}),
          ...(s.path ? { subpath: s.path } : {}),
        },
      };
    }
    case "git":
      return {
        spec: {
          kind: "git",
          raw,
          url: s.url,
          ...(s.ref ? { ref: s.ref } : {}),
          ...(s.sha ? { pin: s.sha } : {}),
          ...(s.path ? { subpath: s.path } : {}),
        },
      };
    case "archive": {
      const sha = s.sha256 ? { expectedSha256: s.sha256 } : {};
      if (!s.url.startsWith("./")) return { spec: { kind: "tarball", raw, location: "https", url: s.url }, ...sha };
      const local = resolveLocalArchive(catalogFile, s.url);
      if ("problem" in local) {
        throw new GjcError({
          code: local.code,
          message: `The catalog entry ${entry.name} has the archive ${s.url}, which ${local.problem}.`,
          hint: "A local archive must be a file inside the catalog's folder, reached without symlinks.",
          exit: local.code === "unsafe_path" ? ExitCode.refused : ExitCode.failed,
        });
      }
      return { spec: { kind: "tarball", raw, location: "file", path: local.file }, ...sha };
    }
    case "npm":
      throw new GjcError({
        code: "unsupported_source",
        message: `The catalog entry ${entry.name} comes from npm (${s.package}); gjc does not install npm catalog entries.`,
        hint: "Ask the catalog author for a github, git or archive source, or install the bundle from its repository directly.",
        exit: ExitCode.failed,
      });
  }
}

/** What a catalog entry resolves to, for the installer (and the audit, which plans it the same way). */
export interface CatalogEntryTarget {
  path: string;
  name: string;
  displayName: string;
  entry: string;
  identity?: string;
  defaultEnabled: boolean;
  expectVersion: string;
}

/**
 * Resolves `<entryName>` in a catalog, fetches its source with the C2 budgets, and hands the
 * fetched root to `use` (the scratch copy is removed afterwards). Install and audit share it,
 * so both act on exactly the same bytes.
 */
export async function withCatalogEntry<T>(
  ctx: Context,
  opts: { entryName: string; catalogPath: string; net?: NetworkOverrides },
  use: (fetched: FetchedSource, catalog: CatalogEntryTarget) => Promise<T>,
): Promise<T> {
  const file = resolveCatalogFile(ctx, opts.catalogPath);
  const read = readCatalogFile(file);
  const parsed = read.raw === undefined ? undefined : parseCatalog(read.raw);
  const diagnostics = [...read.diagnostics, ...(parsed?.diagnostics ?? [])];
  if (!parsed?.catalog) {
    const first = diagnostics.find((d) => d.severity === "error");
    throw new GjcError({
      code: first?.code ?? "invalid_catalog",
      message: `The catalog ${file} cannot be used: ${first?.message ?? "it is invalid"}`,
      hint: `Run "gjc marketplace validate ${file}".`,
      details: { diagnostics },
      exit: ExitCode.failed,
    });
  }
  const catalog = parsed.catalog;
  const entry = catalog.plugins.find((p) => p.name === opts.entryName);
  if (!entry) {
    const summary = parsed.entries.find((e) => e.name === opts.entryName);
    if (summary) {
      const mine = diagnostics.filter((d) => d.path.includes(`/plugins/${summary.index}`));
      throw new GjcError({
        code: "invalid_plugin_entry",
        message: `The catalog entry ${opts.entryName} is invalid: ${mine[0]?.message ?? "see gjc marketplace validate"}`,
        hint: `Run "gjc marketplace validate ${file}".`,
        details: { diagnostics: mine },
        exit: ExitCode.failed,
      });
    }
    const names = catalog.plugins.map((p) => p.name);
    throw new GjcError({
      code: "not_in_catalog",
      message: `The catalog ${catalog.displayName ?? catalog.name} has no plugin named ${opts.entryName}.`,
      hint: names.length ? `It lists: ${names.join(", ")}.` : "The catalog lists no installable plugins.",
      exit: ExitCode.failed,
    });
  }
  if (entry.installationPolicy === "NOT_AVAILABLE") {
    throw new GjcError({
      code: "not_available",
      message: `The catalog marks ${entry.name} NOT_AVAILABLE; it cannot be installed from there.`,
      hint: "Ask the catalog maintainer, or install from the author's repository if you trust it.",
      exit: ExitCode.refused,
    });
  }
  const { spec, expectedSha256, identity } = entrySpec(entry, file);
  const target: CatalogEntryTarget = {
    path: file,
    name: catalog.name,
    displayName: catalog.displayName ?? catalog.name,
    entry: entry.name,
    identity,
    defaultEnabled: entry.defaultEnabled,
    expectVersion: entry.version,
  };
  return withFetchedC2(ctx, spec, (fetched) => use(fetched, target), { expectedSha256, net: opts.net });
}

export async function installC2FromCatalog(
  ctx: Context,
  opts: {
    entryName: string;
    catalogPath: string;
    force?: boolean;
    dryRun?: boolean;
    expectId?: string;
    expectIntegrity?: string;
    net?: NetworkOverrides;
    requireSigned?: boolean;
    acceptSigner?: boolean;
  },
): Promise<C2InstallResult> {
  const [{ withReleaseLog }, { LOG_DIR }] = await Promise.all([
    import("../store/release-log-hook.ts"),
    import("../tlog/layout.ts"),
  ]);
  return withCatalogEntry(ctx, opts, (fetched, catalog) =>
    withReleaseLog(
      ctx,
      { ...fetched, identity: `catalog:${catalog.path}:${catalog.entry}` },
      opts.dryRun,
      () =>
        installFetched(ctx, {
          fetched,
          force: opts.force,
          dryRun: opts.dryRun,
          expectId: opts.expectId,
          expectIntegrity: opts.expectIntegrity,
          catalog,
          requireSigned: opts.requireSigned,
          acceptSigner: opts.acceptSigner,
        }),
      // A catalog's release log sits beside its marketplace.json.
      [join(dirname(catalog.path), LOG_DIR)],
    ),
  );
}
