/**
 * A bundle root judged as install judges it (GJC compile, C2 plan) and its digest: the
 * `sha256:<hex>` integrity a lock records and a signature signs. Install, sync, `gjc plugin
 * digest` and `gjc plugin sign` all use this, so the three can never disagree.
 */
import { join } from "node:path";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { entryExists, GJC_MANIFEST, C2_MANIFEST, noManifestError } from "../families/detect.ts";
import { compileForInstall, type CompiledBundle } from "../families/gjc/compile-for-install.ts";
import { installedMode } from "../families/gjc/layout.ts";
import { integrityOf, type ContentFile } from "./integrity.ts";

export interface JudgedBundle {
  family: "gjc" | "c2";
  name: string;
  version: string;
  files: (ContentFile & { bytes: number })[];
  integrity: string;
  gjc?: CompiledBundle;
}

/** A compiled GJC bundle's files as installed (modes normalized) and their integrity. */
export function gjcContent(bundle: CompiledBundle): { files: JudgedBundle["files"]; integrity: string } {
  const files = bundle.files.map((f) => ({
    path: f.path,
    mode: installedMode(f.mode),
    sha256: f.sha256,
    bytes: f.bytes,
  }));
  return { files, integrity: integrityOf(files) };
}

/** A C2 collection's files as the lock and signatures see them (modes as collected) and their integrity. */
export function c2Content(collected: readonly { path: string; mode: number; sha256: string; size: number }[]): {
  files: JudgedBundle["files"];
  integrity: string;
} {
  const files = collected.map((f) => ({ path: f.path, mode: f.mode, sha256: f.sha256, bytes: f.size }));
  return { files, integrity: integrityOf(files) };
}

export function familyOf(dir: string, label = dir): "gjc" | "c2" {
  if (entryExists(join(dir, GJC_MANIFEST))) return "gjc";
  if (entryExists(join(dir, C2_MANIFEST))) return "c2";
  throw noManifestError(label, [GJC_MANIFEST, C2_MANIFEST]);
}

export async function judgeBundle(dir: string, family: "gjc" | "c2" = familyOf(dir)): Promise<JudgedBundle> {
  if (family === "gjc") {
    const { bundle } = await compileForInstall(dir);
    return { family, ...gjcContent(bundle), name: bundle.name, version: bundle.version, gjc: bundle };
  }
  const { planC2Bundle } = await import("../families/c2/validate.ts");
  const plan = planC2Bundle(dir, { keepContents: false });
  if (!plan.ok || plan.collection.aborted) {
    throw new GjcError({
      code: "invalid_manifest",
      message: `The C2 bundle at ${dir} does not validate.`,
      hint: "Run gjc plugin validate on it.",
      exit: ExitCode.failed,
    });
  }
  return {
    family,
    ...c2Content(plan.collection.files),
    name: plan.manifest?.name ?? "",
    version: plan.manifest?.version ?? "",
  };
}
