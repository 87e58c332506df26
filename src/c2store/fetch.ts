import { C2_LIMITS } from "../bundle/limits.ts";
import type { Context } from "../core/context.ts";
import {
  fetchSource,
  parseSourceSpec,
  type FetchedSource,
  type NetworkOverrides,
  type SourceSpec,
} from "../sources/index.ts";
import { scratchParent } from "../sources/scratch.ts";

/**
 * Fetches a C2 bundle root with the C2 budgets into the shared fetch scratch (the downloaded
 * source, not staging: nothing of it lands in the C2 data directory), runs `fn`, and always
 * removes the scratch copy.
 */
export async function withFetchedC2<T>(
  ctx: Context,
  spec: SourceSpec | string,
  fn: (fetched: FetchedSource) => Promise<T>,
  /** `net` is the sources layer's test seam for https downloads; production leaves it unset. */
  opts: { expectedSha256?: string; net?: NetworkOverrides } = {},
): Promise<T> {
  const parsed = typeof spec === "string" ? parseSourceSpec(spec, ctx) : spec;
  const fetched = await fetchSource(ctx, parsed, {
    scratchRoot: scratchParent(ctx),
    limits: C2_LIMITS,
    manifestNames: ["plugin.json"],
    ...(opts.expectedSha256 ? { expectedSha256: opts.expectedSha256 } : {}),
    ...(opts.net ? { net: opts.net } : {}),
    onProgress: (m) => ctx.log.progress(m),
  });
  try {
    return await fn(fetched);
  } finally {
    await fetched.cleanup();
  }
}
