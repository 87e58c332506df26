/**
 * The installed C2 bundles a session may load from, each verified as at session start: files
 * re-hashed against the installed record (a drifted bundle is quarantined by the store's own
 * verify, which persists it), then enablement and quarantine applied. The caller reads only
 * the files of `usable` bundles, through the hashes recorded here.
 */
import type { Code } from "../core/codes.ts";
import type { Context } from "../core/context.ts";
import type { InstalledC2 } from "../c2store/records.ts";

export type C2BundleStatus = "active" | "disabled" | "quarantined";

export interface VerifiedC2Bundle {
  bundle: InstalledC2;
  status: C2BundleStatus;
  reasons: { code: Code; message: string }[];
  /** Recorded sha256 and size of every installed file, by bundle-relative path. */
  files: Map<string, { sha256: string; size: number; mode: number }>;
}

export async function verifiedC2Bundles(ctx: Context, opts: { persist?: boolean } = {}): Promise<VerifiedC2Bundle[]> {
  const { listInstalledC2 } = await import("../c2store/records.ts");
  let bundles = listInstalledC2(ctx);
  if (bundles.length === 0) return [];
  const problems = new Map<string, string[]>();
  if (opts.persist !== false) {
    // The store's verify quarantines drift in the record (and lifts a stale quarantine).
    const { verifyC2 } = await import("../c2store/lifecycle.ts");
    const result = await verifyC2(ctx);
    for (const b of result.bundles)
      if (!b.ok && b.c2)
        problems.set(
          b.c2.id,
          b.problems.map((p) => p.message),
        );
    bundles = listInstalledC2(ctx);
  } else {
    const { verifyFiles } = await import("../store/verify.ts");
    for (const b of bundles) {
      const check = verifyFiles(
        b.bundleDir,
        b.record.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.size, mode: f.mode })),
      );
      if (!check.ok)
        problems.set(
          b.id,
          check.problems.map((p) => p.message),
        );
    }
  }
  return bundles.map((bundle) => {
    const files = new Map(bundle.record.files.map((f) => [f.path, { sha256: f.sha256, size: f.size, mode: f.mode }]));
    const drift = problems.get(bundle.id);
    if (drift || bundle.quarantine) {
      const detail = drift ?? bundle.quarantine!.files;
      return {
        bundle,
        files,
        status: "quarantined" as const,
        reasons: [
          {
            code: "runtime_mismatch",
            message: `${bundle.name} does not match what was installed (${detail.slice(0, 3).join("; ")}); nothing of it is loaded.`,
          },
        ],
      };
    }
    if (!bundle.enabled)
      return {
        bundle,
        files,
        status: "disabled" as const,
        reasons: [{ code: "plugin_disabled", message: `${bundle.name} is disabled.` }],
      };
    return { bundle, files, status: "active" as const, reasons: [] };
  });
}
