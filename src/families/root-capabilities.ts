import { resolve } from "node:path";
import { sha256Hex } from "../bundle/hash.ts";
import { GJC_LIMITS } from "../bundle/limits.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { C2_MANIFEST, entryExists, GJC_MANIFEST } from "./detect.ts";
import type { ContentFile } from "../bundle/content-integrity.ts";
import type { CapabilityModel } from "./capability-model.ts";

/** A bundle audited from a directory: its model and the manifest bytes findings point into. */
export interface Planned {
  model: CapabilityModel;
  /** Every file as it would be installed: the content integrity (src/bundle/content-integrity.ts) is of these. */
  files: ContentFile[];
  /** The bytes of a bundle file as planned (manifests, for finding locations). */
  text(file: string): Uint8Array | undefined;
}

/** Plans a bundle root the way install does; an invalid bundle is refused with install's error. */
export async function planAuditRoot(dir: string): Promise<Planned> {
  if (entryExists(resolve(dir, GJC_MANIFEST))) {
    const { compileForInstall } = await import("./gjc/compile-for-install.ts");
    const { gjcModelOf } = await import("./gjc/capabilities.ts");
    // Validate's compile without kept contents (audit copies nothing); the manifest's bytes
    // are read again only to locate findings, and used only if they still hash to what was planned.
    const { bundle } = await compileForInstall(dir, { keepContents: false });
    let manifest: Uint8Array | undefined;
    const manifestBytes = () => {
      if (manifest) return manifest;
      try {
        const bytes = readRegularFile(resolve(dir, GJC_MANIFEST), GJC_LIMITS.maxFileBytes, GJC_MANIFEST).bytes;
        if (sha256Hex(bytes) === bundle.manifestSha256) manifest = bytes;
      } catch {}
      return manifest;
    };
    const model = gjcModelOf(bundle, manifestBytes());
    const { installedMode } = await import("./gjc/layout.ts");
    const files = bundle.files.map((f) => ({ path: f.path, mode: installedMode(f.mode), sha256: f.sha256 }));
    return { model, files, text: (file) => (file === GJC_MANIFEST ? manifestBytes() : undefined) };
  }
  if (entryExists(resolve(dir, C2_MANIFEST))) {
    const { planC2Bundle } = await import("./c2/validate.ts");
    const { invalidBundleError } = await import("./refusal.ts");
    const { c2Capabilities } = await import("./c2/capabilities.ts");
    const plan = planC2Bundle(dir, { keepContents: true });
    if (!plan.ok || !plan.manifest || plan.collection.aborted) throw invalidBundleError(plan.dir, plan.diagnostics);
    const contents = plan.collection.contents ?? new Map<string, Uint8Array>();
    const files = plan.collection.files.map((f) => ({ path: f.path, mode: f.mode, sha256: f.sha256 }));
    return { model: c2Capabilities({ ...plan, manifest: plan.manifest }), files, text: (file) => contents.get(file) };
  }
  throw new GjcError({
    code: "no_manifest",
    message: `${dir} holds neither ${GJC_MANIFEST} nor ${C2_MANIFEST} at its root.`,
    hint: "Point at the bundle directory itself (the one with the manifest).",
    exit: ExitCode.failed,
  });
}
