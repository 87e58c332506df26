/**
 * The C2 bundle pipeline shared by `validate` and install: plugin.json → contributions →
 * the bounded collector. Validate reports it; install copies exactly `collection.files`
 * (with `keepContents`, the very bytes that were hashed).
 */
import { collectBundle, type Collection } from "../../bundle/collect.ts";
import { C2_LIMITS } from "../../bundle/limits.ts";
import type { Context } from "../../core/context.ts";
import { DiagnosticSink, type Diagnostic } from "../../core/diagnostics.ts";
import type { ValidationReport } from "../types.ts";
import { commandSurface } from "./command-surface.ts";
import { inventoryC2Contributions, type C2Contributions } from "./contributions.ts";
import { parseC2Manifest, readC2ManifestFile } from "./manifest.ts";
import type { C2Manifest } from "./types.ts";

export interface C2Plan {
  dir: string;
  /** Present only when plugin.json is valid. */
  manifest?: C2Manifest;
  /** plugin.json's name and version as written, for reports about invalid bundles. */
  declared: { name: string | null; version: string | null };
  contributions: C2Contributions;
  collection: Collection;
  diagnostics: Diagnostic[];
  /** No error-level diagnostic. */
  ok: boolean;
}

export interface PlanOptions {
  keepContents?: boolean;
}

/**
 * Runs every check (c2-notes §3.4 order: manifest, contributions, no-component rule, file
 * collection) and keeps going after errors so one run reports all of them.
 */
export function planC2Bundle(dir: string, opts: PlanOptions = {}): C2Plan {
  const sink = new DiagnosticSink();
  const read = readC2ManifestFile(dir);
  for (const d of read.diagnostics) sink.add(d);
  let manifest: C2Manifest | undefined;
  if (read.raw !== undefined) {
    const parsed = parseC2Manifest(read.raw, { bundleDir: dir });
    for (const d of parsed.diagnostics) sink.add(d);
    manifest = parsed.manifest;
  }
  const contributions = inventoryC2Contributions(dir, manifest, sink);
  const collection = collectBundle(dir, C2_LIMITS, { keepContents: opts.keepContents });
  for (const d of collection.diagnostics) sink.add(d);
  const raw = read.raw as { name?: unknown; version?: unknown } | undefined;
  return {
    dir,
    manifest,
    declared: {
      name: typeof raw?.name === "string" ? raw.name : null,
      version: typeof raw?.version === "string" ? raw.version : null,
    },
    contributions,
    collection,
    diagnostics: sink.items,
    ok: !sink.hasErrors,
  };
}

export async function validateC2Bundle(_ctx: Context, dir: string): Promise<ValidationReport> {
  const plan = planC2Bundle(dir);
  return c2Report(plan);
}

export function c2Report(plan: C2Plan): ValidationReport {
  const files = plan.collection.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.size, mode: f.mode }));
  return {
    ok: plan.ok,
    family: "c2",
    target: plan.dir,
    name: plan.manifest?.name ?? plan.declared.name,
    version: plan.manifest?.version ?? plan.declared.version,
    contributions: { ...plan.contributions.counts },
    components: plan.contributions.components,
    ...(plan.manifest ? { commands: commandSurface(plan.manifest.codetwo.commands) } : {}),
    files,
    diagnostics: plan.diagnostics,
  };
}
