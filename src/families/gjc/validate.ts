import type { Context } from "../../core/context.ts";
import type { ValidationReport } from "../types.ts";
import { compileGjcBundle } from "./compile.ts";

/**
 * `gjc plugin validate` for a GJC bundle: install's compile step without the write. Lists
 * the surfaces and the files that would be copied when the bundle is valid, and every
 * diagnostic either way.
 */
export async function validateGjcBundle(_ctx: Context, dir: string): Promise<ValidationReport> {
  const { bundle, diagnostics, partial } = compileGjcBundle(dir);
  const report: ValidationReport = {
    ok: bundle !== undefined,
    family: "gjc",
    target: dir,
    name: bundle?.name ?? partial.name,
    version: bundle?.version ?? partial.version,
    diagnostics,
  };
  // Surfaces and files are listed only for a valid bundle: an invalid one would install nothing.
  if (bundle) {
    report.surfaces = bundle.surfaces.map((s) => ({ id: s.id, kind: s.kind, enabledByDefault: s.enabledByDefault }));
    report.files = bundle.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes }));
  }
  return report;
}
