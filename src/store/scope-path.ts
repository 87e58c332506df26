import { lstatSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { pathInside } from "../bundle/path-safety.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "../core/scope.ts";

/**
 * Which links gjc follows on the way to a scope, and which directories it uses (issue #12, class 1).
 *
 * - The user scope root (`~/.gjc/agent/gjc-plugins` or GJC_USER_DIR) and the C2 data directory
 *   (`~/.codetwo` or GJC_C2_DATA_DIR): the path up to and including the root is the user's own
 *   choice (HOME, an environment variable, a dotfile manager's `~/.gjc` link, a home on another
 *   disk), so links there are followed.
 * - The project scope: the project directory (the working directory or `--project`) is the
 *   user's choice and is followed; `.gjc` and `.gjc/gjc-plugins` arrive with the repository, so
 *   they must be real directories. A clone that ships `.gjc` as a link to `~/.ssh` or to another
 *   user's directory would otherwise make gjc create, write and delete there.
 * - Inside every root, nothing is ever followed (content, staging and trash directories, the
 *   C2 `plugins/` and `.data/` trees): the store's readers and writers use lstat semantics.
 *
 * `trustedBase` is where following stops: every existing directory strictly below it, down to
 * and including `target`, must be a real directory, owned by this user and not writable by
 * every user. Missing ones are fine (gjc creates them, 0755). Whoever may write a directory
 * can rename what is in it: another user owning `.gjc/gjc-plugins`, or a world-writable one,
 * could swap a verified content directory for their own between session start and the
 * host's import of a tool module. Like git's safe.directory, ownership is what is judged:
 * a group-writable directory passes (with user private groups, the default umask 002 makes
 * every directory a clone creates group-writable, the group being the user alone).
 */
export function scopePathProblem(trustedBase: string, target: string): string | undefined {
  const rest = pathInside(trustedBase, target);
  if (rest === undefined || rest === "") return undefined;
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  let cur = trustedBase;
  for (const part of rest.split(sep)) {
    cur = join(cur, part);
    let st;
    try {
      st = lstatSync(cur);
    } catch {
      return undefined;
    }
    if (st.isSymbolicLink()) return `${cur} is a symbolic link`;
    if (!st.isDirectory()) return undefined; // not a directory: the write reports not_a_directory
    if (uid !== undefined && st.uid !== uid) return `${cur} belongs to another user (uid ${st.uid})`;
    if ((st.mode & 0o002) !== 0) return `${cur} is writable by every user (mode ${(st.mode & 0o7777).toString(8)})`;
  }
  return undefined;
}

/** Where following stops for a GJC scope root: the root itself (user), the project directory (project). */
export function gjcTrustedBase(root: string, scope: Scope): string {
  return scope === "user" ? root : dirname(dirname(root));
}

const SCOPE_PATH_RULE =
  "gjc never follows links inside a project or a store, nor uses a directory there that another user owns or every user may write";

/** Why a GJC scope root may not be read (list, session, doctor): the problem and the rule, or undefined. */
export function unsafeGjcScope(root: string, scope: Scope): string | undefined {
  const problem = scopePathProblem(gjcTrustedBase(root, scope), root);
  return problem === undefined ? undefined : `${problem}; ${SCOPE_PATH_RULE}`;
}

export function unsafeScopePath(label: string, problem: string): GjcError {
  return new GjcError({
    code: "unsafe_scope_path",
    message: `${label.charAt(0).toUpperCase()}${label.slice(1)} is not safe to use (${problem}); ${SCOPE_PATH_RULE}, so nothing was written.`,
    hint: "Replace a link with a real directory, take back a directory that is yours (chown) or stop others writing it (chmod o-w <dir>), or remove it: gjc makes the directory itself. A shared team setup belongs in the lock file (.gjc/plugins.lock.json), never in .gjc/gjc-plugins.",
    details: { problem },
    exit: ExitCode.refused,
  });
}
