/** SHA-256 on Bun's native hasher (far faster than any WASM hash here). */
export function sha256Hex(data: Uint8Array | string): string {
  // One-shot Bun.SHA256 skips creating a hasher object per file (measurably faster on 5,000 files).
  return Bun.SHA256.hash(data, "hex") as string;
}

/** An incremental SHA-256, for a file read a chunk at a time. */
export function sha256Hasher(): { update(data: Uint8Array): void; digestHex(): string } {
  const h = new Bun.CryptoHasher("sha256");
  return { update: (data) => void h.update(data), digestHex: () => h.digest("hex") };
}

/** HMAC-SHA256 of the parts in order, as hex (the state-key MAC). */
export function hmacSha256Hex(key: Uint8Array, ...parts: string[]): string {
  const h = new Bun.CryptoHasher("sha256", key);
  for (const part of parts) h.update(part);
  return h.digest("hex");
}

let blake3Loader: Promise<(data: Uint8Array | string) => Promise<string>> | undefined;

/**
 * BLAKE3 (C2 per-project data directories are keyed by it). Bun has no BLAKE3, so hash-wasm
 * is loaded on first use only: loading the WASM costs ~15 ms we do not want at start-up.
 */
export async function blake3Hex(data: Uint8Array | string): Promise<string> {
  blake3Loader ??= import("hash-wasm").then((m) => m.blake3);
  const blake3 = await blake3Loader;
  return blake3(data);
}

/** FNV-1a 32-bit, 8 lowercase hex digits (C2 installed ids and slug-hashes). */
export function fnv1a32Hex(value: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(value)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** SHA-256 as 32 raw bytes (Merkle tree nodes, note key ids), on the same native hasher. */
export function sha256Bytes(data: Uint8Array | string): Uint8Array {
  return new Uint8Array(Bun.SHA256.hash(data) as Uint8Array);
}
