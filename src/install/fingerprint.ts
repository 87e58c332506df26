import { sha256Hex } from "../bundle/hash.ts";
import type { CompiledBundle } from "../families/gjc/compile-for-install.ts";
import { installedMode } from "../families/gjc/layout.ts";
import { entrySurfaces, type RegistryEntry } from "./registry-types.ts";

/**
 * The content fingerprint of an install: name, version, manifest hash, surface ids and every
 * file (path, hash, size, mode). Two installs with the same fingerprint hold the same bytes,
 * so re-installing is a no-op; anything else is a different bundle.
 */
function fingerprint(
  name: string,
  version: string,
  manifestHash: string,
  surfaceIds: string[],
  files: string[],
): string {
  return sha256Hex(
    [name, version, manifestHash, [...surfaceIds].sort().join(","), [...files].sort().join("\n")].join("\0"),
  );
}

export function candidateFingerprint(bundle: CompiledBundle): string {
  return fingerprint(
    bundle.name,
    bundle.version,
    bundle.manifestSha256,
    bundle.surfaces.map((s) => s.id),
    bundle.files.map((f) => `${f.path}:${f.sha256}:${f.bytes}:${installedMode(f.mode).toString(8)}`),
  );
}

export function entryFingerprint(entry: RegistryEntry): string {
  return fingerprint(
    entry.name,
    entry.version,
    entry.manifestHash,
    entrySurfaces(entry).map((s) => s.extensionId),
    entry.copiedFiles.map((f) => `${f.relativePath}:${f.sha256}:${f.bytes}:${f.mode.toString(8)}`),
  );
}
