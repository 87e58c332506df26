import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { blake3Hex } from "../bundle/hash.ts";
import type { Context } from "../core/context.ts";

/**
 * The one spelling of a project used as a policy key, a realm name and a data key
 * (C2 standard §3, c2-notes §7.8): absolute, then the real path, so `dir/.`, `a/../dir` and a
 * symlink to `dir` all name the same project. A path that does not exist yet keeps the real
 * path of its nearest existing ancestor plus the remaining segments, so creating the
 * directory later does not change its key when no link is involved.
 */
export function normalizeProjectPath(ctx: Pick<Context, "cwd">, input: string): string {
  const absolute = isAbsolute(input) ? resolve(input) : resolve(ctx.cwd, input);
  const tail: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = realpathSync(current);
      return tail.length === 0 ? real : join(real, ...tail.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      tail.push(basename(current));
      current = parent;
    }
  }
}

/** Lowercase hex BLAKE3-256 of the normalized path's UTF-8 bytes (64 characters). */
export function projectHash(normalizedPath: string): Promise<string> {
  return blake3Hex(normalizedPath);
}
