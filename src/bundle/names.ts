/** C0 and C1 control characters (and DEL) are never allowed in a file name we copy. */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

export function hasControlChars(s: string): boolean {
  return CONTROL_CHARS.test(s);
}

/**
 * The key two names collide under: Unicode NFC, then case folding. macOS and Windows
 * treat such names as one file, so a bundle holding both would install differently there.
 */
export function collisionKey(name: string): string {
  return name.normalize("NFC").toLowerCase();
}

/** Finds the first pair of names that collide, or undefined. */
export function findCollision(names: Iterable<string>): [string, string] | undefined {
  const seen = new Map<string, string>();
  for (const n of names) {
    const key = collisionKey(n);
    const prior = seen.get(key);
    if (prior !== undefined && prior !== n) return [prior, n];
    seen.set(key, n);
  }
  return undefined;
}
