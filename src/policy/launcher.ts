import { statSync } from "node:fs";
import { join } from "node:path";
import { hasControlChars } from "../bundle/names.ts";
import { relativePathProblem, walkInside } from "../bundle/path-safety.ts";

export interface StdioLaunch {
  command: string;
  args?: string[];
  cwd?: string;
}

/** Paths in an accepted verdict are bundle-relative POSIX paths ("." is the root). */
export type LauncherVerdict =
  | { ok: true; kind: "node" | "bun" | "bundled"; script?: string; executable?: string; cwd?: string }
  | { ok: false; reason: string };

/**
 * Bun reads its first argument as a subcommand before a file, and an extensionless word as a
 * package.json script, so a "script" spelled like one of these would run something else.
 */
export const BUN_SUBCOMMANDS = new Set([
  "run",
  "x",
  "exec",
  "test",
  "repl",
  "install",
  "i",
  "add",
  "a",
  "remove",
  "rm",
  "r",
  "update",
  "outdated",
  "link",
  "unlink",
  "pm",
  "build",
  "init",
  "create",
  "c",
  "upgrade",
  "publish",
  "patch",
  "patch-commit",
  "audit",
  "info",
  "why",
  "completions",
  "discord",
  "help",
  "getcompletes",
  "feedback",
  "bunx",
]);

const fail = (reason: string): LauncherVerdict => ({ ok: false, reason });

/**
 * Characters a shell, cmd.exe or an MCP host's template engine would expand. The launch never
 * goes through a shell, but the same manifest may be copied into configs that do, and the
 * expanded value could carry a host secret; so these are refused outright.
 */
export function expansionProblem(value: string): string | undefined {
  if (hasControlChars(value)) return "contains a control character";
  if (value.includes("$(")) return 'contains a command substitution "$("';
  if (value.includes("${")) return 'contains a variable expansion "${"';
  if (value.includes("$")) return 'contains "$" (variable expansion)';
  if (value.includes("`")) return "contains a backtick (command substitution)";
  if (/%[A-Za-z_][^%\s]*%/.test(value)) return "contains a %VAR% expansion";
  if (value.startsWith("~")) return 'starts with "~" (home directory expansion)';
  return undefined;
}

/**
 * A bundle path written in a launch (`./bin/server`, `mcp/s.ts`): relative POSIX, an optional
 * leading "./", then the lexical rules every declared file follows. Returns the normalized
 * path or the reason it is refused.
 */
function bundlePath(value: string, what: string): { ok: true; path: string } | { ok: false; reason: string } {
  const rel = value.startsWith("./") ? value.slice(2) : value;
  const problem = relativePathProblem(rel);
  if (problem)
    return { ok: false, reason: `the ${what} "${value}" ${problem}; it must be a relative path inside the bundle` };
  return { ok: true, path: rel };
}

function normalizeCwd(cwd: string): { ok: true; path: string } | { ok: false; reason: string } {
  if (cwd === "") return { ok: false, reason: 'cwd is empty; omit it or use "." for the bundle root' };
  if (cwd === "." || cwd === "./") return { ok: true, path: "" };
  const trimmed = cwd.endsWith("/") ? cwd.slice(0, -1) : cwd;
  return bundlePath(trimmed, "cwd");
}

/**
 * The seed confines stdio servers to the plugin root: an argument that names a path outside it
 * (`/etc/passwd`, `C:\\x`, `../../secret`, or the value of `--opt=<path>`) is refused, so a
 * bundled script cannot be pointed at the user's files by its own manifest. `..` that stays
 * inside the root (`lib/../data.json`) is fine. Paths resolve against the declared cwd, as in
 * the child. Returns why the argument is refused, or undefined.
 */
export function argumentPathProblem(arg: string, cwd: string): string | undefined {
  const values = [arg];
  const eq = arg.indexOf("=");
  if (arg.startsWith("-") && eq > 0) values.push(arg.slice(eq + 1));
  for (const value of values) {
    if (value.startsWith("/") || value.startsWith("\\") || /^[A-Za-z]:([\\/]|$)/.test(value) || /^file:/i.test(value))
      return "is an absolute path, outside the plugin root";
    // A URL names no file of this machine: its path is the server's.
    if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value)) continue;
    let depth = cwd === "" ? 0 : cwd.split("/").length;
    for (const segment of value.split(/[\\/]/)) {
      if (segment === "..") depth--;
      else if (segment !== "" && segment !== ".") depth++;
      if (depth < 0) return "is a path that leaves the plugin root";
    }
  }
  return undefined;
}

const joinRel = (dir: string, rel: string) => (dir === "" ? rel : `${dir}/${rel}`);

/** Every element a string (a hole in a sparse array counts as undefined, not as skipped). */
const allStrings = (values: unknown[]): values is string[] => [...values].every((v) => typeof v === "string");

/**
 * DESIGN item 10: who may launch a bundle's stdio MCP server. `node` or `bun` followed
 * directly by the bundled script, or a bundled executable named `./path`. Paths are resolved
 * against the declared cwd (as the child would) and reported relative to the bundle root.
 * With `bundleRoot`, the files are also checked on disk: regular, reached without symlinks,
 * the executable with an x bit, the cwd an existing directory.
 */
export function checkStdioLauncher(launch: StdioLaunch, bundleRoot?: string): LauncherVerdict {
  if (!launch || typeof launch.command !== "string" || launch.command === "") return fail("the stdio command is empty");
  const args = launch.args ?? [];
  if (!Array.isArray(args) || !allStrings(args)) return fail("args must be an array of strings");

  const commandProblem = expansionProblem(launch.command);
  if (commandProblem) return fail(`the command "${launch.command}" ${commandProblem}`);
  for (const [i, arg] of args.entries()) {
    const problem = expansionProblem(arg);
    if (problem) return fail(`argument ${i + 1} "${arg}" ${problem}`);
  }

  let cwd = "";
  if (launch.cwd !== undefined) {
    if (typeof launch.cwd !== "string") return fail("cwd must be a string");
    const problem = expansionProblem(launch.cwd);
    if (problem) return fail(`cwd "${launch.cwd}" ${problem}`);
    const normalized = normalizeCwd(launch.cwd);
    if (!normalized.ok) return fail(normalized.reason);
    cwd = normalized.path;
  }
  const cwdOut = launch.cwd === undefined ? undefined : cwd === "" ? "." : cwd;

  const command = launch.command;
  let verdict: LauncherVerdict;
  if (command === "node" || command === "bun") {
    const first = args[0];
    if (first === undefined)
      return fail(`${command} needs the bundled script as its first argument (it would start a REPL otherwise)`);
    if (first.startsWith("-"))
      return fail(
        `${command} options before the bundled script are not allowed ("${first}"); put the script first, its own arguments after it`,
      );
    if (command === "bun" && BUN_SUBCOMMANDS.has(first))
      return fail(
        `"${first}" is a bun subcommand, not a bundled script; name the script file (for example ./server.ts)`,
      );
    if (command === "bun" && !first.startsWith("./") && !/\.[^./]+$/.test(first))
      return fail(
        `bun reads "${first}" as a package.json script name, not a file; write it as ./${first} or give the file its extension`,
      );
    const script = bundlePath(first, "script");
    if (!script.ok) return fail(script.reason);
    verdict = { ok: true, kind: command, script: joinRel(cwd, script.path) };
  } else if (command.startsWith("./")) {
    const exe = bundlePath(command, "command");
    if (!exe.ok) return fail(exe.reason);
    verdict = { ok: true, kind: "bundled", executable: joinRel(cwd, exe.path) };
  } else {
    return fail(
      `the stdio command "${command}" is not allowed; use exactly "node" or "bun" with a bundled script, or a bundled executable written as ./path`,
    );
  }
  // The script itself was judged above; what follows it (or every argument of a bundled executable) is judged here.
  for (let i = verdict.script !== undefined ? 1 : 0; i < args.length; i++) {
    const problem = argumentPathProblem(args[i], cwd);
    if (problem)
      return fail(`argument ${i + 1} "${args[i]}" ${problem}; stdio servers are confined to the plugin root`);
  }
  if (cwdOut !== undefined) verdict.cwd = cwdOut;
  if (bundleRoot !== undefined) {
    const onDisk = checkOnDisk(verdict, bundleRoot, cwd);
    if (onDisk) return fail(onDisk);
  }
  return verdict;
}

function checkOnDisk(verdict: Extract<LauncherVerdict, { ok: true }>, root: string, cwd: string): string | undefined {
  if (cwd !== "") {
    const dir = walkInside(root, cwd, "dir");
    if (!dir.ok) return `cwd "${cwd}" is not a directory inside the bundle (${describeWalk(dir.reason)} at ${dir.at})`;
  }
  const rel = verdict.script ?? verdict.executable;
  if (rel === undefined) return "nothing to launch";
  const what = verdict.script !== undefined ? "script" : "executable";
  const file = walkInside(root, rel, "file");
  if (!file.ok)
    return `the ${what} "${rel}" is not a regular file inside the bundle (${describeWalk(file.reason)} at ${file.at})`;
  if (verdict.executable !== undefined) {
    const mode = statSync(join(root, rel)).mode;
    if ((mode & 0o111) === 0) return `the executable "${rel}" has no execute permission (chmod +x it in the bundle)`;
  }
  return undefined;
}

function describeWalk(reason: "missing" | "symlink" | "not_file" | "not_dir" | "special"): string {
  switch (reason) {
    case "missing":
      return "missing";
    case "symlink":
      return "a symbolic link";
    case "not_file":
      return "a directory";
    case "not_dir":
      return "not a directory";
    case "special":
      return "a special file";
  }
}
