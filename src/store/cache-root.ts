import { lstatSync, statSync, type Stats } from "node:fs";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { cacheRoot } from "../core/context.ts";

/**
 * The content cache holds judged bytes that sync installs and rollback restores without
 * fetching again, so it is judged like the private scratch inside it (src/sources/scratch.ts):
 * the cache directory (`GJC_CACHE_DIR`, `$XDG_CACHE_HOME/gjc`, `~/.cache/gjc`) and its
 * `content/` must be real directories owned by this user that neither group nor others may
 * write, the rule the scratch applies to the same directory (gjc makes both 0700). Links
 * up to the cache directory are the user's own and followed; `content/` is never a link. A
 * cache in a shared folder, or one another user made first, is refused: whoever could write it
 * could swap what gjc installs.
 */
export function cacheRootProblem(ctx: Context): string | undefined {
  const root = cacheRoot(ctx);
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const judge = (path: string, st: Stats | undefined): string | undefined => {
    if (st === undefined) return undefined; // not made yet: gjc makes it 0700
    if (st.isSymbolicLink()) return `${path} is a symbolic link`;
    if (!st.isDirectory()) return `${path} is not a directory`;
    if (uid !== undefined && st.uid !== uid) return `${path} belongs to another user (uid ${st.uid})`;
    if ((st.mode & 0o022) !== 0) return `other users may write ${path} (mode ${(st.mode & 0o777).toString(8)})`;
    return undefined;
  };
  return (
    judge(
      root,
      tryStat(() => statSync(root)),
    ) ??
    judge(
      `${root}/content`,
      tryStat(() => lstatSync(`${root}/content`)),
    )
  );
}

function tryStat(f: () => Stats): Stats | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** Throws security_policy when the cache may not be used (cacheRootProblem). */
export function assertCacheRoot(ctx: Context): void {
  const problem = cacheRootProblem(ctx);
  if (problem === undefined) return;
  throw new GjcError({
    code: "security_policy",
    message: `The content cache ${cacheRoot(ctx)} is not private: ${problem}. Nothing was read from it or written to it.`,
    hint: "Point GJC_CACHE_DIR at a directory only you can write, or remove the cache directory if it is not yours (gjc makes it again, 0700); if it is yours, chmod 700 it.",
    details: { cacheRoot: cacheRoot(ctx), problem },
    exit: ExitCode.refused,
  });
}
