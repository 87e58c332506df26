/**
 * The C2 family adapter of the store (src/store/family.ts): one user-wide store under the C2
 * data directory, `plugins/<id>/` holding the verbatim bundle and its installed-plugin.json.
 */
import type { Code } from "../core/codes.ts";
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { C2_MANIFEST } from "../families/detect.ts";
import type { FamilyAdapter } from "../store/family.ts";
import type { ForeignBundle } from "../store/documents.ts";
import type { ForeignRecord } from "./foreign-record.ts";
import { bundleHome, c2Layout, type C2Layout } from "./paths.ts";

/** A foreign record as the store documents show it. */
export function foreignBundle(layout: C2Layout, f: ForeignRecord): ForeignBundle {
  const { schemaVersion, ...facts } = f;
  return { family: "c2", scope: "user", ...facts, schemaVersion, path: bundleHome(layout, f.id) };
}

const lifecycle = () => import("./lifecycle.ts");
// The records reader (and the store lock, trust and leftover code it brings) loads only when a
// C2 store exists: `list` and `verify` of a machine without C2 bundles never evaluate it.
const records = () => require("./records.ts") as typeof import("./records.ts");
const noticeWarnings = (notices: { code: Code; message: string }[]): Diagnostic[] =>
  notices.map((n) => ({ code: n.code, severity: "warning", path: "", message: n.message }));

export const c2Family: FamilyAdapter = {
  family: "c2",
  scopes: ["user"],
  manifest: C2_MANIFEST,
  install: async (ctx, fetched, opts) =>
    (await lifecycle()).installC2(ctx, {
      fetched,
      force: opts.force,
      dryRun: opts.dryRun,
      expectIntegrity: opts.expectIntegrity,
      requireSigned: opts.requireSigned,
      acceptSigner: opts.acceptSigner,
    }),
  async holds(ctx, name) {
    const layout = c2Layout(ctx);
    if (!existsSync(layout.plugins)) return { found: false };
    // A bundle the C2 app installed is found too: the verb then says whose it is (foreign_record).
    return {
      found: records().findRecord(layout, name) !== undefined || records().findForeign(layout, name) !== undefined,
    };
  },
  async list(ctx: Context) {
    const layout = c2Layout(ctx);
    // C2 modules load only when a C2 store exists (keeps `list` as quick as a bare start).
    if (!existsSync(layout.plugins)) return { bundles: [], problems: [] };
    const r = (await lifecycle()).listC2(ctx);
    return {
      bundles: r.plugins,
      problems: r.broken.map((b) => ({
        family: "c2" as const,
        scope: "user" as const,
        path: bundleHome(layout, b.id),
        id: b.id,
        problem: b.problem,
      })),
      foreign: r.foreign.map((f) => foreignBundle(layout, f)),
    };
  },
  async inspect(ctx, name) {
    const layout = c2Layout(ctx);
    const foreign = records().findRecord(layout, name) === undefined ? records().findForeign(layout, name) : undefined;
    if (foreign !== undefined) return { foreign: foreignBundle(layout, foreign) };
    return (await lifecycle()).inspectC2(ctx, name);
  },
  uninstall: async (ctx, name, _scope, opts) => (await lifecycle()).uninstallC2(ctx, name, opts),
  async setEnabled(ctx, name, _scope, enabled, surface) {
    if (surface !== undefined) {
      throw new GjcError({
        code: "unsupported_surface",
        message: "--surface applies to GJC bundles; a C2 bundle's components are governed by its policy.",
        hint: `Use "gjc plugin policy plan ${name} --state ${enabled ? "enabled" : "disabled"} --component <kind:id>", or --family gjc for a GJC bundle.`,
        exit: ExitCode.usage,
      });
    }
    const r = await (await lifecycle()).setC2Enabled(ctx, name, enabled);
    return {
      family: "c2",
      name: r.name,
      scope: "user",
      enabled: r.enabled,
      changed: r.changed,
      warnings: noticeWarnings(r.notices),
      c2: { id: r.id, trusted: r.trusted },
    };
  },
  upgrade: async (ctx, name, _scope, opts) => (await lifecycle()).upgradeC2(ctx, name, opts),
  async verify(ctx, _scope, name) {
    const layout = c2Layout(ctx);
    if (!existsSync(layout.plugins)) return { bundles: [], problems: [] };
    const r = await (await lifecycle()).verifyC2(ctx, name);
    // A bundle directory whose record is unusable cannot be verified: it fails the verify, as a
    // corrupt GJC registry does, instead of being skipped.
    const broken = name === undefined ? records().scanRecords(layout).broken : [];
    return {
      bundles: r.bundles,
      problems: broken.map((b) => ({
        family: "c2" as const,
        scope: "user" as const,
        path: bundleHome(layout, b.id),
        id: b.id,
        problem: b.problem,
      })),
    };
  },
  doctor: async (ctx, _scope, fix) => (await import("./doctor.ts")).doctorC2(ctx, fix),
};
