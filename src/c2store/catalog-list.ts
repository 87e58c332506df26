import type { Context } from "../core/context.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { describeSource, parseCatalog, readCatalogFile } from "../families/c2/catalog.ts";
import { resolveCatalogFile } from "./catalog-install.ts";
import { listInstalledC2 } from "./records.ts";

export interface CatalogListing {
  file: string;
  name: string;
  displayName: string | null;
  entries: {
    name: string;
    version: string;
    description: string | null;
    source: string;
    installationPolicy: string;
    /** Whether `gjc plugin install <name>@<catalog>` can take it, and why not. */
    installable: boolean;
    /** Why not: the code `gjc plugin install` would refuse it with, and what it means (empty when installable). */
    reasons: { code: "not_available" | "unsupported_source"; message: string }[];
    /** `runsProcesses`: a runtime or a language server, the only things trust gates. */
    installed: { id: string; version: string; enabled: boolean; trusted: boolean; runsProcesses: boolean } | null;
  }[];
  /** Entry-level problems; invalid entries are left out of `entries`. */
  diagnostics: Diagnostic[];
}

/**
 * `gjc marketplace list <catalog>`: the catalog's valid entries, whether each can be installed
 * here (npm sources and NOT_AVAILABLE entries cannot), and which are installed already.
 */
export function listCatalog(ctx: Context, catalogPath: string): CatalogListing {
  const file = resolveCatalogFile(ctx, catalogPath);
  const read = readCatalogFile(file);
  const parsed = read.raw === undefined ? undefined : parseCatalog(read.raw);
  const diagnostics = [...read.diagnostics, ...(parsed?.diagnostics ?? [])];
  if (!parsed?.catalog) {
    const first = diagnostics.find((d) => d.severity === "error");
    throw new GjcError({
      code: first?.code ?? "invalid_catalog",
      message: `${catalogPath} is not a usable catalog${first ? `: ${first.message}` : "."}`,
      hint: `Run "gjc marketplace validate ${catalogPath}" to see every problem.`,
      exit: ExitCode.failed,
    });
  }
  const installed = new Map(listInstalledC2(ctx).map((b) => [b.name, b]));
  const entries: CatalogListing["entries"] = [];
  for (const e of parsed.catalog.plugins) {
    const have = installed.get(e.name);
    const reasons: CatalogListing["entries"][number]["reasons"] =
      e.installationPolicy === "NOT_AVAILABLE"
        ? [{ code: "not_available", message: "the catalog marks it NOT_AVAILABLE" }]
        : e.source.kind === "npm"
          ? [{ code: "unsupported_source", message: "npm sources are not installed by gjc" }]
          : [];
    entries.push({
      name: e.name,
      version: e.version,
      description: e.description ?? null,
      source: describeSource(e.source as unknown as Record<string, unknown>),
      installationPolicy: e.installationPolicy,
      installable: reasons.length === 0,
      reasons,
      installed: have
        ? {
            id: have.id,
            version: have.version,
            enabled: have.enabled,
            trusted: have.trusted,
            runsProcesses: have.manifest.codetwo.runtime !== null || have.components.some((c) => c.kind === "lsp"),
          }
        : null,
    });
  }
  return { file, name: parsed.catalog.name, displayName: parsed.catalog.displayName ?? null, entries, diagnostics };
}
