/**
 * The canonical digest of a bundle (the lock's `integrity`, src/sets/integrity.ts) from a
 * bundle root or from anything `install` accepts: judged by its family exactly as install and
 * sync judge it, so the digest a publisher logs is the one a client computes.
 */
import { join } from "node:path";
import type { Context } from "../core/context.ts";
import { C2_MANIFEST, GJC_MANIFEST, entryExists, noManifestError } from "../families/detect.ts";
import { judgeBundle } from "./content.ts";
import { integrityOf } from "./integrity.ts";

export interface BundleDigest {
  family: "gjc" | "c2";
  name: string;
  version: string;
  digest: string;
}

/** The digest of a bundle root (GJC first, as install detects the family). */
export async function digestOfBundleDir(dir: string, display = dir): Promise<BundleDigest> {
  const family = entryExists(join(dir, GJC_MANIFEST)) ? "gjc" : entryExists(join(dir, C2_MANIFEST)) ? "c2" : undefined;
  if (family === undefined) throw noManifestError(display, [GJC_MANIFEST, C2_MANIFEST]);
  const judged = await judgeBundle(dir, { family, name: display });
  return { family, name: judged.name, version: judged.version, digest: integrityOf(judged.files) };
}

/** The digest of a source as install would fetch it (directory, archive, git URL). */
export async function digestOfSource(ctx: Context, spec: string): Promise<BundleDigest> {
  const { fetchSpec } = await import("../install/fetch-source.ts");
  const fetched = await fetchSpec(ctx, spec, (m) => ctx.log.progress(m));
  try {
    return await digestOfBundleDir(fetched.dir, fetched.display);
  } finally {
    await fetched.cleanup();
  }
}
