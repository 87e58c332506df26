/**
 * Real local git repositories for tests, and a sandboxed git configuration: HOME and
 * GIT_CONFIG_GLOBAL point into a temp dir (the system config is ignored), so tests can add
 * `url.<base>.insteadOf` rules that map https://github.com/ to local repositories.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { writeTree, type TreeSpec } from "./tmp.ts";

export interface GitSandbox {
  home: string;
  /** The global config file (GIT_CONFIG_GLOBAL). */
  config: string;
  /** Environment for git and for the code under test (createContext({ env })). */
  env: Record<string, string>;
}

export function gitSandbox(root: string): GitSandbox {
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  const config = join(home, "gitconfig");
  writeFileSync(config, "[user]\n\tname = Test\n\temail = test@example.invalid\n[init]\n\tdefaultBranch = main\n");
  const env: Record<string, string> = {
    HOME: home,
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    GIT_CONFIG_GLOBAL: config,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
  };
  return { home, config, env };
}

export function git(sandbox: GitSandbox, cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    env: sandbox.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** Adds a line to the sandbox's global git config. */
export function gitConfig(sandbox: GitSandbox, key: string, value: string): void {
  execFileSync("git", ["config", "--file", sandbox.config, "--add", key, value], { env: sandbox.env });
}

/** Makes git fetch every https://github.com/<o>/<r>.git from `<root>/<o>/<r>.git` instead. */
export function mapGithubTo(sandbox: GitSandbox, root: string): void {
  gitConfig(sandbox, `url.${pathToFileURL(root).href}/.insteadOf`, "https://github.com/");
}

export interface TestRepo {
  dir: string;
  /** file:// URL of the repository. */
  url: string;
  /** Writes files, commits them, returns the new commit SHA. */
  commit(files: TreeSpec, message?: string): string;
  head(): string;
  tag(name: string): void;
  branch(name: string): void;
  checkout(name: string): void;
}

export interface RepoOptions {
  /** Let clients fetch any commit by id (a pinned SHA over file://; GitHub allows it too). */
  allowShaWant?: boolean;
}

export function makeRepo(sandbox: GitSandbox, dir: string, files: TreeSpec, options: RepoOptions = {}): TestRepo {
  mkdirSync(dir, { recursive: true });
  git(sandbox, dir, "init", "-q", "-b", "main");
  if (options.allowShaWant) {
    git(sandbox, dir, "config", "uploadpack.allowReachableSHA1InWant", "true");
    git(sandbox, dir, "config", "uploadpack.allowAnySHA1InWant", "true");
  }
  let n = 0;
  const repo: TestRepo = {
    dir,
    url: pathToFileURL(dir).href,
    commit(more, message) {
      writeTree(dir, more);
      git(sandbox, dir, "add", "-A");
      git(sandbox, dir, "commit", "-q", "--allow-empty", "-m", message ?? `commit ${++n}`);
      return repo.head();
    },
    head: () => git(sandbox, dir, "rev-parse", "HEAD"),
    tag: (name) => void git(sandbox, dir, "tag", name),
    branch: (name) => void git(sandbox, dir, "branch", name),
    checkout: (name) => void git(sandbox, dir, "checkout", "-q", name),
  };
  repo.commit(files, "initial");
  return repo;
}
