import { join } from "node:path";
import type { Context } from "../core/context.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { entryExists, noManifestError } from "../families/detect.ts";
import type { InstallResult, Scope } from "../store/documents.ts";
import { families } from "./families.ts";
import { requireScope, selectedScopes } from "../store/resolve.ts";

export interface InstallRequest {
  spec: string;
  user?: boolean;
  project?: boolean;
  force?: boolean;
  dryRun?: boolean;
  /** C2: install the entry named `spec` from this marketplace.json. */
  catalog?: string;
  /** Archive sources: the SHA-256 the archive must have. */
  sha256?: string;
  /** Any source: the content integrity (`sha256:<hex>`, as audit and locks report it) the bundle must have. */
  integrity?: string;
  /** Refuse an unsigned bundle (unsigned_bundle). */
  requireSigned?: boolean;
  /** Accept content signed by another key than the installed one's. */
  acceptSigner?: boolean;
}

export function c2ProjectScope(): GjcError {
  return usageError(
    "C2 bundles are installed once per user, not per project.",
    "Drop --project; to turn a C2 bundle on or off for one project, use gjc plugin policy plan <name> --state enabled|disabled --project <dir>.",
    "c2_project_scope",
  );
}

/**
 * `gjc plugin install <source>`: a catalog entry (C2) or a source the sources layer fetches;
 * the family is the first adapter whose manifest the fetched root holds (GJC first), and that
 * adapter plans and commits it. GJC bundles need a scope; C2 bundles are user-wide.
 */
export async function installSpec(ctx: Context, req: InstallRequest): Promise<InstallResult> {
  selectedScopes(req); // refuses --user with --project
  if (req.integrity !== undefined && !/^sha256:[0-9a-f]{64}$/.test(req.integrity)) {
    throw usageError(
      `--integrity ${JSON.stringify(req.integrity.slice(0, 80))} is not sha256:<64 lowercase hex>.`,
      "Copy content.integrity from gjc plugin audit <source> --json (or a lock entry's integrity).",
      "invalid_option_value",
    );
  }
  // A sync or rollback killed half-way is finished first; the generation is recorded after (src/sets/remember.ts).
  const { storeChange } = await import("../sets/remember.ts");
  return storeChange(ctx, "gjc plugin install", req.dryRun, () => install(ctx, req));
}

async function install(ctx: Context, req: InstallRequest): Promise<InstallResult> {
  const scope: Scope | undefined = req.user ? "user" : req.project ? "project" : undefined;
  const adapters = await families();
  // `<name>@<catalog>` and `--catalog <marketplace.json>` name C2 catalog entries (C2 only).
  const maybeEntry = req.catalog !== undefined || /^[a-z0-9][a-z0-9.-]*@/.test(req.spec);
  const catalog = maybeEntry ? await import("../c2store/catalog-install.ts") : undefined;
  const entry = !catalog
    ? undefined
    : req.catalog !== undefined
      ? { entryName: req.spec, catalogPath: req.catalog }
      : catalog.isCatalogSpec(ctx, req.spec);
  if (catalog && entry) {
    if (req.sha256 !== undefined)
      throw usageError(
        "--sha256 does not apply to catalog entries; the catalog's own sha256 is checked.",
        "Drop --sha256, or install the archive file directly.",
        "invalid_option_value",
      );
    if (scope === "project") throw c2ProjectScope();
    return catalog.installC2FromCatalog(ctx, {
      ...entry,
      force: req.force,
      dryRun: req.dryRun,
      expectIntegrity: req.integrity,
      requireSigned: req.requireSigned,
      acceptSigner: req.acceptSigner,
    });
  }
  const { fetchSpec } = await import("../install/fetch-source.ts");
  const fetched = await fetchSpec(ctx, req.spec, (m) => ctx.log.progress(m), req.sha256);
  try {
    const adapter = adapters.find((a) => entryExists(join(fetched.dir, a.manifest)));
    if (!adapter)
      throw noManifestError(
        fetched.display,
        adapters.map((a) => a.manifest),
      );
    if (scope !== undefined && !adapter.scopes.includes(scope)) throw c2ProjectScope();
    const target =
      scope ?? (adapter.scopes.length === 1 ? adapter.scopes[0] : requireScope(req, "Installing a GJC bundle"));
    const { withReleaseLog } = await import("../store/release-log-hook.ts");
    return await withReleaseLog(ctx, fetched, req.dryRun, () =>
      adapter.install(ctx, fetched, {
        scope: target,
        force: req.force,
        dryRun: req.dryRun,
        expectIntegrity: req.integrity,
        requireSigned: req.requireSigned,
        acceptSigner: req.acceptSigner,
      }),
    );
  } finally {
    await fetched.cleanup();
  }
}
