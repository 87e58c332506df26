/** C0 and C1 control characters (and DEL) are never allowed in a file name we copy. */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

export function hasControlChars(s: string): boolean {
  return CONTROL_CHARS.test(s);
}

/** Text from outside (a server, a child, a bundle) on one line: each run of control characters becomes one space. */
export function flattenControlChars(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ");
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

/**
 * Whether a path segment is git's repository marker: `.git` as a directory or as a file
 * (`gitdir: <elsewhere>`), in any case, since git on macOS and Windows reads `.GIT` as `.git`.
 * Installed, it would make every git run inside the bundle (a shell prompt's `git status`, an
 * editor) use a repository of the bundle's choosing, with its config's fsmonitor and hooks, so
 * it is never collected nor declared.
 */
export function isGitMarker(segment: string): boolean {
  return segment.length === 4 && segment.toLowerCase() === ".git";
}

/**
 * The detached SSH signature a directory bundle carries at its root. It signs the bundle's
 * digest, so it cannot be part of it: collectors skip it and it is never installed.
 */
export const SIGNATURE_FILE = "gjc-signature.sshsig";
