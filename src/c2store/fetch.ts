import { existsSync, mkdirSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { C2_LIMITS } from "../bundle/limits.ts";
import type { Context } from "../core/context.ts";
import { fetchSource, parseSourceSpec, type FetchedSource, type SourceSpec } from "../sources/index.ts";
import { c2Layout } from "./paths.ts";

/**
 * Fetches a C2 bundle root with the C2 budgets into a scratch directory inside the C2 data
 * directory (beside the destination, never the OS temp dir), runs `fn`, and cleans up: the
 * scratch dir, and the parents we had to create, are gone again whatever `fn` did.
 */
export async function withFetchedC2<T>(
  ctx: Context,
  spec: SourceSpec | string,
  fn: (fetched: FetchedSource) => Promise<T>,
  opts: { expectedSha256?: string } = {},
): Promise<T> {
  const layout = c2Layout(ctx);
  const scratchRoot = join(layout.root, ".fetch");
  // The scratch root is always ours to remove when empty; the data root only if we made it.
  const created = [layout.root, scratchRoot].filter((d) => !existsSync(d));
  const parsed = typeof spec === "string" ? parseSourceSpec(spec, ctx) : spec;
  let fetched: FetchedSource | undefined;
  try {
    mkdirSync(scratchRoot, { recursive: true });
    fetched = await fetchSource(ctx, parsed, {
      scratchRoot,
      limits: C2_LIMITS,
      manifestNames: ["plugin.json"],
      ...(opts.expectedSha256 ? { expectedSha256: opts.expectedSha256 } : {}),
      onProgress: (m) => ctx.log.progress(m),
    });
    return await fn(fetched);
  } finally {
    await fetched?.cleanup();
    for (const dir of [scratchRoot, ...created.filter((d) => d !== scratchRoot)]) {
      try {
        rmdirSync(dir); // only when empty
      } catch {}
    }
  }
}
