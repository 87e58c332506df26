import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "../core/context.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { C2_MANIFEST, GJC_MANIFEST } from "../families/detect.ts";
import { fetchSpec } from "./fetch-source.ts";
import { installGjcBundle, type GjcInstallResult } from "./install.ts";
import type { Scope } from "./registry-types.ts";

export interface ScopeFlags {
  user?: boolean;
  project?: boolean;
}

/** `--user` XOR `--project` → the scope, or undefined when neither was given. */
export function scopeFromFlags(flags: ScopeFlags): Scope | undefined {
  if (flags.user && flags.project) throw usageError("Give either --user or --project, not both.", "A GJC bundle lives in exactly one scope per command.", "scope_conflict");
  return flags.user ? "user" : flags.project ? "project" : undefined;
}

export function requireScope(flags: ScopeFlags, what: string): Scope {
  const scope = scopeFromFlags(flags);
  if (!scope) {
    throw usageError(
      `${what} needs exactly one of --user or --project.`,
      "--user acts on ~/.gjc/agent/gjc-plugins (or GJC_USER_DIR); --project on .gjc/gjc-plugins of the current directory.",
      "scope_required",
    );
  }
  return scope;
}

const exists = (p: string) => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

export type InstallOutcome = { family: "gjc"; result: GjcInstallResult } | { family: "c2"; result: Record<string, unknown> };

/**
 * `gjc plugin install <source>`: fetch, tell the family from the fetched root (gajae-plugin.json
 * first, as the GJC seed routes it), then the GJC transaction or the C2 installer.
 */
export async function installFromSpec(ctx: Context, req: ScopeFlags & { spec: string; force?: boolean; dryRun?: boolean; catalog?: string; sha256?: string }): Promise<InstallOutcome> {
  const scope = scopeFromFlags(req);
  // `<name>@<catalog>` and `--catalog <marketplace.json>` name C2 catalog entries (C2 only).
  const maybeEntry = req.catalog !== undefined || /^[a-z0-9][a-z0-9.-]*@/.test(req.spec);
  const entry = !maybeEntry ? undefined : req.catalog !== undefined ? { entryName: req.spec, catalogPath: req.catalog } : (await import("../c2store/catalog-install.ts")).isCatalogSpec(ctx, req.spec);
  if (entry) {
    if (req.sha256 !== undefined) throw usageError("--sha256 does not apply to catalog entries; the catalog's own sha256 is checked.", "Drop --sha256, or install the archive file directly.", "invalid_option_value");
    if (scope === "project") throw c2ProjectScope();
    const { installC2FromCatalog } = await import("../c2store/lifecycle.ts");
    return { family: "c2", result: await withC2Human(ctx, installC2FromCatalog(ctx, { ...entry, force: req.force, dryRun: req.dryRun })) };
  }
  const fetched = await fetchSpec(ctx, req.spec, (m) => ctx.log.progress(m), req.sha256);
  try {
    if (exists(join(fetched.dir, GJC_MANIFEST))) {
      const target = scope ?? requireScope(req, "Installing a GJC bundle");
      const result = await installGjcBundle(ctx, fetched, { scope: target, force: req.force, dryRun: req.dryRun, command: "gjc plugin install" });
      return { family: "gjc", result };
    }
    if (exists(join(fetched.dir, C2_MANIFEST))) {
      if (scope === "project") throw c2ProjectScope();
      return { family: "c2", result: await installC2Bridge(ctx, fetched, req) };
    }
    throw new GjcError({
      code: "no_manifest",
      message: `${fetched.display} holds neither ${GJC_MANIFEST} nor ${C2_MANIFEST} at its root.`,
      hint: "Point at the bundle directory itself (the one with the manifest).",
      exit: ExitCode.failed,
    });
  } finally {
    await fetched.cleanup();
  }
}

function c2ProjectScope(): GjcError {
  return usageError(
    "C2 bundles are installed once per user, not per project.",
    "Drop --project; to turn a C2 bundle on or off for one project, use gjc plugin policy plan <name> --state enabled|disabled --project <dir>.",
    "c2_project_scope",
  );
}

/** The C2 installer (src/c2store); the result carries its human summary for the verb. */
async function installC2Bridge(ctx: Context, fetched: import("../sources/types.ts").FetchedSource, req: { force?: boolean; dryRun?: boolean }): Promise<Record<string, unknown>> {
  const { installC2 } = await import("../c2store/lifecycle.ts");
  return withC2Human(ctx, installC2(ctx, { fetched, force: req.force, dryRun: req.dryRun }));
}

async function withC2Human(ctx: Context, pending: Promise<import("../c2store/install.ts").C2InstallResult>): Promise<Record<string, unknown>> {
  const result = await pending;
  const { describeC2Install } = await import("../cli/render/c2-lifecycle.ts");
  return { ...result, human: describeC2Install(ctx, result) };
}
