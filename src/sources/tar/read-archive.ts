import type { BundleLimits } from "../../bundle/limits.ts";

import { sha256Hex } from "../../bundle/hash.ts";
import { sourceError } from "../errors.ts";
import { streamChunks } from "../stream-chunks.ts";
import { TarJudge, tarBudget, type JudgedEntry } from "./judge.ts";

export interface JudgedArchive {
  /** SHA-256 of the archive bytes as given (compressed when gzip). */
  sha256: string;
  entries: JudgedEntry[];
  /** "" when the manifest is at the archive root, else the single top folder holding it. */
  root: string;
  /** Decompressed tar bytes read before the end marker. */
  streamBytes: number;
}

/** The most archive bytes we accept before decompressing (a tar is never much smaller than its files). */
export function archiveByteBudget(limits: BundleLimits): number {
  return tarBudget(limits).maxStreamBytes + 64 * 1024;
}

/**
 * Checks the archive hash, then judges every entry of a tar or tar.gz while decompressing as
 * a stream (so a bomb stops at the budget), then picks the bundle root. Nothing is written.
 */
export async function judgeArchive(
  bytes: Uint8Array,
  limits: BundleLimits,
  manifestNames: string[],
  expectedSha256?: string,
): Promise<JudgedArchive> {
  const sha256 = sha256Hex(bytes);
  if (expectedSha256 !== undefined && sha256 !== expectedSha256.toLowerCase()) {
    throw sourceError(
      "hash_mismatch",
      `The archive's SHA-256 is ${sha256}, not the expected ${expectedSha256.toLowerCase()}.`,
      "The archive changed or is not the one you meant; nothing was written. Check the URL and the expected hash.",
      {
        expected: expectedSha256.toLowerCase(),
        actual: sha256,
      },
    );
  }
  const judge = new TarJudge(tarBudget(limits));
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) await gunzipInto(bytes, judge);
  else judge.push(bytes);
  const entries = judge.finish();
  const root = pickRoot(entries, manifestNames);
  checkRelativeShape(entries, root, limits);
  return { sha256, entries, root, streamBytes: judge.streamBytes };
}

async function gunzipInto(bytes: Uint8Array, judge: TarJudge): Promise<void> {
  const gunzipped = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const readError = () =>
    sourceError(
      "invalid_archive",
      "The gzip stream is corrupt or truncated.",
      "Download or build the archive again; nothing was written.",
      { streamBytes: judge.streamBytes },
    );
  // Drained to the end even after the end marker, so gzip verifies its CRC and length;
  // the judge's stream budget bounds what that may cost.
  for await (const chunk of streamChunks(gunzipped, readError)) judge.push(chunk);
}

/** The C2 manifest: the C2 standard has no top-folder form for it. */
const C2_MANIFEST = "plugin.json";

/**
 * The manifest must be at the archive root, or directly inside the one folder everything lives
 * under. A C2 bundle is the exception: "extracting it MUST produce plugin.json at the selected
 * root" and C2 searches no child directory, so `pkg/plugin.json` (with no GJC manifest beside
 * it, which would make it a GJC bundle) is refused with the nested manifest named.
 */
function pickRoot(entries: JudgedEntry[], manifestNames: string[]): string {
  const files = new Set(entries.filter((e) => e.type === "file").map((e) => e.path));
  if (manifestNames.some((m) => files.has(m))) return "";
  const tops = new Set(entries.map((e) => e.path.split("/")[0]));
  if (tops.size === 1) {
    const [top] = tops;
    const found = manifestNames.filter((m) => !files.has(top) && files.has(`${top}/${m}`));
    if (found.length > 0 && found.every((m) => m === C2_MANIFEST)) {
      throw sourceError(
        "nested_manifest",
        `The archive holds ${top}/${C2_MANIFEST}, not ${C2_MANIFEST} at its root; a C2 bundle's archive must extract ${C2_MANIFEST} at the selected root (C2 does not search child directories).`,
        `Pack the bundle directory's contents at the archive root (for example "tar -C ${top} -czf bundle.tgz ." or "gjc plugin pack ${top}").`,
        { manifest: `${top}/${C2_MANIFEST}` },
      );
    }
    if (found.length > 0) return top;
  }
  throw sourceError(
    "missing_file",
    `The archive has no ${manifestNames.join(" or ")} at its root or inside a single top folder.`,
    "Put the manifest at the archive root, or pack the bundle as one top folder that holds it.",
  );
}

function checkRelativeShape(entries: JudgedEntry[], root: string, limits: BundleLimits): void {
  const strip = root === "" ? 0 : root.length + 1;
  for (const e of entries) {
    if (e.path === root) continue;
    const rel = e.path.slice(strip);
    const segments = rel.split("/").length;
    const depth = e.type === "dir" ? segments : segments - 1;
    if (depth > limits.maxDepth) {
      throw sourceError(
        "source_too_large",
        `${rel} is nested ${depth} directories deep; the limit is ${limits.maxDepth}.`,
        "Flatten the bundle layout; nothing was written.",
        { limit: "depth", entry: rel },
      );
    }
    if (limits.maxPathBytes !== undefined && Buffer.byteLength(rel) > limits.maxPathBytes) {
      throw sourceError(
        "source_too_large",
        `A path in the archive is longer than ${limits.maxPathBytes} bytes.`,
        "Shorten it; nothing was written.",
        { limit: "path_bytes", entry: rel },
      );
    }
  }
}
