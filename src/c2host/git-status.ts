import { GjcError } from "../core/errors.ts";
import { buildChildEnv } from "../process/env.ts";
import { launch, type LaunchedProcess } from "../process/launch.ts";

/** The answer of the public host command `git.status` (DESIGN 6a): the shape C2 plugins read. */
export interface GitStatusResult {
  is_repo: boolean;
  branch: string;
  ahead: number;
  behind: number;
  files: GitStatusFile[];
}

export interface GitStatusFile {
  path: string;
  original_path: string | null;
  staged: boolean;
  unstaged: boolean;
  /** One word for simple clients: modified | added | deleted | renamed | copied | untracked | unmerged. */
  state: string;
  staged_state: string | null;
  unstaged_state: string | null;
}

/**
 * A trusted runtime names the directory; it does not get to choose code for git to run there
 * (issue #12, class 6). A repository's own `.git/config` (one that arrived in an archive, or
 * that a runtime wrote) may name an fsmonitor program, hooks or a pager: all are turned off on
 * the command line, which wins over every config file (status shows no diff, so no external
 * diff or textconv runs; GIT_EXTERNAL_DIFF goes with the other GIT_* variables). Optional locks
 * off: a read must not take the index lock from the user.
 */
export const STATUS_HARDENING = [
  "--no-pager",
  "--no-optional-locks",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.pager=cat",
  "-c",
  "status.submoduleSummary=false",
];

/**
 * The child allow-list (src/process/env.ts) and no `GIT_*` variable from the host: GIT_DIR,
 * GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES,
 * GIT_COMMON_DIR, GIT_CEILING_DIRECTORIES, GIT_CONFIG*, GIT_EXEC_PATH and the rest would make
 * git read another repository than the one at `cwd`, or inject configuration or programs.
 * Only the settings we choose are put back.
 */
export function gitStatusEnv(env: Record<string, string | undefined>): Record<string, string> {
  return buildChildEnv(env, {
    hostExtras: ["XDG_CONFIG_HOME"],
    fixed: { GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat" },
  }).env;
}

const notARepo = (): GitStatusResult => ({ is_repo: false, branch: "", ahead: 0, behind: 0, files: [] });

/**
 * Runs the real `git status --porcelain=v2 --branch -z` in `cwd`. NUL-delimited output keeps
 * names with spaces or newlines unambiguous. A directory outside any repository (or a missing
 * directory) answers `is_repo: false` rather than an error: that is a fact about the directory.
 */
export async function gitStatus(
  cwd: string,
  env: Record<string, string | undefined>,
  signal?: AbortSignal,
): Promise<GitStatusResult> {
  const git = Bun.which("git", { PATH: env.PATH ?? "" });
  if (!git)
    throw new GjcError({
      code: "git_not_found",
      message: "git is not available on PATH",
      hint: "Install git to let runtimes read repository status.",
    });
  let child: LaunchedProcess<"ignore", "pipe", "pipe">;
  try {
    child = launch({
      argv: [git, ...STATUS_HARDENING, "status", "--porcelain=v2", "--branch", "-z"],
      cwd,
      env: gitStatusEnv(env),
      stdin: "ignore",
    });
  } catch {
    return notARepo(); // cwd does not exist or is not a directory
  }
  const onAbort = () => void child.stop();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const [out, code] = await Promise.all([
      new Response(child.proc.stdout).arrayBuffer(),
      child.exited,
      new Response(child.proc.stderr).text(),
    ]);
    if (code !== 0) return notARepo();
    return parsePorcelainV2(new Uint8Array(out));
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await child.stop();
  }
}

/** Parses the NUL-delimited porcelain v2 form (records of type `#`, `1`, `2`, `u`, `?`). */
export function parsePorcelainV2(bytes: Uint8Array): GitStatusResult {
  const records = new TextDecoder().decode(bytes).split("\0");
  const result: GitStatusResult = { is_repo: true, branch: "", ahead: 0, behind: 0, files: [] };
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (r === "") continue;
    if (r.startsWith("# branch.head ")) result.branch = r.slice("# branch.head ".length);
    else if (r.startsWith("# branch.ab ")) {
      const m = /^\+(\d+) -(\d+)$/.exec(r.slice("# branch.ab ".length));
      if (m) {
        result.ahead = Number(m[1]);
        result.behind = Number(m[2]);
      }
    } else if (r.startsWith("1 ")) {
      const f = fields(r, 9);
      if (f) result.files.push(changed(f[1], f[8], null));
    } else if (r.startsWith("2 ")) {
      // With -z the rename source is the next NUL-terminated record, not a tab-separated field.
      const f = fields(r, 10);
      const original = records[i + 1] ?? null;
      i++;
      if (f) result.files.push(changed(f[1], f[9], original));
    } else if (r.startsWith("u ")) {
      const f = fields(r, 11);
      if (f)
        result.files.push({
          path: f[10],
          original_path: null,
          staged: true,
          unstaged: true,
          state: "unmerged",
          staged_state: "unmerged",
          unstaged_state: "unmerged",
        });
    } else if (r.startsWith("? ")) {
      result.files.push({
        path: r.slice(2),
        original_path: null,
        staged: false,
        unstaged: true,
        state: "untracked",
        staged_state: null,
        unstaged_state: "untracked",
      });
    }
  }
  return result;
}

/** Splits the first n-1 space-separated fields; the last one (the path) may contain spaces. */
function fields(record: string, n: number): string[] | undefined {
  const out: string[] = [];
  let at = 0;
  for (let k = 0; k < n - 1; k++) {
    const sp = record.indexOf(" ", at);
    if (sp === -1) return undefined;
    out.push(record.slice(at, sp));
    at = sp + 1;
  }
  out.push(record.slice(at));
  return out[n - 1] === "" ? undefined : out;
}

function side(code: string): string | null {
  switch (code) {
    case ".":
    case " ":
      return null;
    case "A":
      return "added";
    case "D":
      return "deleted";
    case "R":
      return "renamed";
    case "C":
      return "copied";
    case "U":
      return "unmerged";
    default:
      return "modified"; // M, T (type change)
  }
}

function changed(xy: string, path: string, original: string | null): GitStatusFile {
  const staged = side(xy[0] ?? ".");
  const unstaged = side(xy[1] ?? ".");
  const state = xy.includes("U") ? "unmerged" : (staged ?? unstaged ?? "modified");
  return {
    path,
    original_path: original,
    staged: staged !== null,
    unstaged: unstaged !== null,
    state,
    staged_state: staged,
    unstaged_state: unstaged,
  };
}
