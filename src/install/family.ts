/**
 * The GJC family adapter of the store (src/store/family.ts): scopes `user` and `project`, each
 * a directory of immutable `<name>@<id>/` content dirs committed by `registry.json`.
 *
 * Each method imports the code it runs (as the C2 adapter does): `list` and `verify` must not
 * evaluate the install transaction, the store lock (and node:os), doctor or upgrade at start.
 */
import type { BundleRow, InspectBundle } from "../store/documents.ts";
import type { FamilyAdapter } from "../store/family.ts";
import { GJC_MANIFEST } from "../families/detect.ts";
import { scopeRoot } from "../families/gjc/layout.ts";
import { readScopeSummaries } from "./scope-summaries.ts";
import { storedFiles } from "./registry-types.ts";
import type { BundleSummary } from "./summary.ts";

/** A list summary (as registry.index.json keeps it) as the shared row. */
export function gjcRow(b: BundleSummary): BundleRow {
  return {
    family: "gjc",
    name: b.name,
    version: b.version,
    scope: b.scope,
    enabled: b.enabled,
    quarantined: b.quarantined,
    source: {
      kind: b.source.kind as BundleRow["source"]["kind"],
      display: b.source.display,
      ...(b.source.ref ? { ref: b.source.ref } : {}),
      ...(b.source.sha ? { sha: b.source.sha } : {}),
      resolvedAt: b.source.resolvedAt,
    },
    installedAt: b.installedAt,
    updatedAt: b.updatedAt,
    ...(b.signer ? { signer: b.signer } : {}),
    gjc: { counts: b.counts, manifestHash: b.manifestHash, quarantine: b.quarantine },
  };
}

export const gjcFamily: FamilyAdapter = {
  family: "gjc",
  scopes: ["user", "project"],
  manifest: GJC_MANIFEST,
  install: async (ctx, fetched, opts) =>
    (await import("./install.ts")).installGjcBundle(ctx, fetched, { ...opts, command: "gjc plugin install" }),
  async holds(ctx, name, scope) {
    // The registry's reader is loaded here, not at start: `list` answers from the list index.
    const { readRegistry } = await import("./registry.ts");
    try {
      // readRegistry fails closed with the scope's own error (registry_corrupt, unsafe_scope_path).
      return { found: readRegistry(scopeRoot(ctx, scope), scope, ctx).plugins.some((p) => p.name === name) };
    } catch (error) {
      return { found: false, problem: error as Error };
    }
  },
  async list(ctx, scope) {
    const read = await readScopeSummaries(scopeRoot(ctx, scope), scope, ctx);
    if (!read.ok)
      return {
        bundles: [],
        problems: [
          { family: "gjc", scope, path: read.path, problem: read.problem, ...(read.foreign ? { foreign: true } : {}) },
        ],
      };
    const rows = read.bundles.map(gjcRow);
    if (read.readOnly) for (const row of rows) row.gjc!.writer = "gjc-agent";
    return { bundles: rows, problems: [] };
  },
  async inspect(ctx, name, scope): Promise<InspectBundle> {
    const r = (await import("./query.ts")).inspectGjc(ctx, name, scope);
    const { c2: _none, ...row } = gjcRow(r);
    const files = r.files.map((f) => ({ path: f.relativePath, sha256: f.sha256, bytes: f.bytes, mode: f.mode }));
    return {
      ...row,
      source: {
        ...r.sourceRecord,
        kind: r.sourceRecord.kind as BundleRow["source"]["kind"],
        resolvedAt: r.source.resolvedAt,
      },
      root: r.pluginRoot,
      description: null,
      files,
      bytes: files.reduce((n, f) => n + f.bytes, 0),
      gjc: { ...row.gjc!, surfaces: r.surfaces },
    };
  },
  async uninstall(ctx, name, scope, opts) {
    const r = await (await import("./uninstall.ts")).uninstallGjc(ctx, name, scope, { dryRun: opts.dryRun });
    return {
      family: "gjc",
      status: r.status,
      name: r.name,
      version: r.version,
      scope: r.scope,
      files: r.files,
      warnings: [],
      gjc: { unowned: r.unowned, ...(r.keptIn !== undefined ? { keptIn: r.keptIn } : {}) },
    };
  },
  async setEnabled(ctx, name, scope, enabled, surface) {
    const r = await (await import("./enablement.ts")).setGjcEnabled(ctx, name, scope, enabled, surface);
    return {
      family: "gjc",
      name: r.name,
      scope: r.scope,
      ...(r.surface ? { surface: r.surface } : {}),
      enabled: r.enabled,
      changed: r.changed,
      warnings: [],
    };
  },
  upgrade: async (ctx, name, scope, opts) =>
    (await import("./upgrade.ts")).upgradeGjc(ctx, name, scope, { ...opts, onProgress: (m) => ctx.log.progress(m) }),
  async verify(ctx, scope, name) {
    const r = await (await import("./verify-scopes.ts")).verifyGjc(ctx, name, [scope]).catch((error) => {
      // A name checked in one scope at a time: absent here is not an error of the whole verb.
      if (name !== undefined && (error as { code?: string }).code === "not_installed")
        return { ok: true, bundles: [], problems: [] };
      throw error;
    });
    return { bundles: r.bundles, problems: r.problems };
  },
  doctor: async (ctx, scope, fix, opts) => (await import("./doctor.ts")).doctorGjcScope(ctx, scope, fix, opts?.adopt),
};

export { storedFiles };
