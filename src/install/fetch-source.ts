import { tmpdir } from "node:os";
import { join } from "node:path";
import { GJC_LIMITS } from "../bundle/limits.ts";
import type { Context } from "../core/context.ts";
import { C2_MANIFEST, GJC_MANIFEST } from "../families/detect.ts";
import type { FetchedSource, SourceRecord } from "../sources/types.ts";
import type { RegistrySource } from "./registry-types.ts";

export type Fetched = FetchedSource;

/**
 * Fetch scratch lives in the OS temp dir: it is the downloaded source, not staging (staging
 * sits beside the destination), and a refused fetch leaves nothing in any scope.
 */
export function scratchRoot(ctx: Context): string {
  return join(ctx.env.TMPDIR && ctx.env.TMPDIR !== "" ? ctx.env.TMPDIR : tmpdir(), "gjc-fetch");
}

const options = (ctx: Context, onProgress?: (m: string) => void) => ({
  scratchRoot: scratchRoot(ctx),
  // The family is known only after the fetch: fetch within the larger (GJC) budget; the C2
  // installer applies its own, smaller limits when it collects the bundle.
  limits: GJC_LIMITS,
  manifestNames: [GJC_MANIFEST, C2_MANIFEST],
  onProgress,
});

/** Fetches what a person typed (path, tarball, git, GitHub) into a local bundle root. */
export async function fetchSpec(ctx: Context, spec: string, onProgress?: (m: string) => void): Promise<Fetched> {
  const { parseSourceSpec, fetchSource } = await import("../sources/index.ts");
  return fetchSource(ctx, parseSourceSpec(spec, ctx), options(ctx, onProgress));
}

/** Re-resolves a recorded source (upgrade): the same location and ref; a moved branch gives its new commit. */
export async function fetchRecorded(ctx: Context, source: RegistrySource, onProgress?: (m: string) => void): Promise<Fetched> {
  const { specFromRecord, fetchSource } = await import("../sources/index.ts");
  const { resolvedAt: _drop, ...record } = source;
  return fetchSource(ctx, specFromRecord(record as unknown as SourceRecord), options(ctx, onProgress));
}
