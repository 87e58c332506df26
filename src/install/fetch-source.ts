import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { GJC_LIMITS } from "../bundle/limits.ts";
import type { Context } from "../core/context.ts";
import { usageError } from "../core/errors.ts";
import { C2_MANIFEST, GJC_MANIFEST, linkedRootError, noManifestError, notFoundError } from "../families/detect.ts";
import { scratchParent } from "../sources/scratch.ts";

const MANIFESTS = [GJC_MANIFEST, C2_MANIFEST];
import type { FetchedSource, SourceRecord, SourceSpec } from "../sources/types.ts";
import type { RegistrySource } from "./registry-types.ts";

export type Fetched = FetchedSource;

/**
 * Fetch scratch is the downloaded source, not staging (staging sits beside the destination):
 * it lives in the user's private scratch parent (src/sources/scratch.ts), so a refused fetch
 * leaves nothing in any scope.
 */
const options = (ctx: Context, onProgress?: (m: string) => void, expectedSha256?: string) => ({
  scratchRoot: scratchParent(ctx),
  ...(expectedSha256 !== undefined ? { expectedSha256 } : {}),
  // The family is known only after the fetch: fetch within the larger (GJC) budget; the C2
  // installer applies its own, smaller limits when it collects the bundle.
  limits: GJC_LIMITS,
  manifestNames: [GJC_MANIFEST, C2_MANIFEST],
  onProgress,
});

/**
 * Fetches what a person typed (path, tarball, git, GitHub) into a local bundle root. With
 * `expectedSha256` (install --sha256) the source must be an archive, and its bytes are checked
 * before anything is written.
 */
export async function fetchSpec(
  ctx: Context,
  spec: string,
  onProgress?: (m: string) => void,
  expectedSha256?: string,
): Promise<Fetched> {
  const { parseSourceSpec, fetchSource } = await import("../sources/index.ts");
  const parsed = parseSourceSpec(spec, ctx);
  checkLocal(spec, parsed);
  if (expectedSha256 !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(expectedSha256)) {
      throw usageError(
        `--sha256 must be 64 hexadecimal digits, not "${expectedSha256}".`,
        "Copy the digest that gjc plugin pack (or sha256sum) printed.",
        "invalid_option_value",
      );
    }
    if (parsed.kind !== "tarball") {
      throw usageError(
        "--sha256 applies to archive sources (.tgz, .tar.gz, .tar) only.",
        "Git sources are pinned with #<40-hex commit>; directories are read as they are.",
        "invalid_option_value",
      );
    }
  }
  return fetchSource(ctx, parsed, options(ctx, onProgress, expectedSha256));
}

/**
 * A local path that is not there, a folder without a manifest, or a path that is a link gets
 * the very answer `validate` gives (`not_found` exit 2, `no_manifest` / `unsafe_path` exit 1),
 * before anything is fetched.
 */
function checkLocal(spec: string, parsed: SourceSpec): void {
  const path =
    parsed.kind === "path" || (parsed.kind === "tarball" && parsed.location === "file") ? parsed.path : undefined;
  if (path === undefined) return;
  let st;
  try {
    st = lstatSync(path);
  } catch {
    throw notFoundError(spec);
  }
  // As validate judges it (families/detect.ts): a bundle path that is a link is refused, so
  // the two never disagree about which directory is the bundle.
  if (parsed.kind === "path" && st.isSymbolicLink()) throw linkedRootError(spec);
  if (st.isDirectory() && !MANIFESTS.some((m) => existsSync(join(path, m)))) throw noManifestError(spec, MANIFESTS);
}

/** Re-resolves a recorded source (upgrade): the same location and ref; a moved branch gives its new commit. */
export async function fetchRecorded(
  ctx: Context,
  source: RegistrySource,
  onProgress?: (m: string) => void,
): Promise<Fetched> {
  const { specFromRecord, fetchSource } = await import("../sources/index.ts");
  const { resolvedAt: _drop, ...record } = source;
  return fetchSource(ctx, specFromRecord(record as unknown as SourceRecord), options(ctx, onProgress));
}
