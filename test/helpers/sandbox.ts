/**
 * One sandbox for tests that run gjc: a temporary root holding a HOME, the GJC user scope, the
 * C2 data directory, a project and a TMPDIR, the environment that points gjc at them, and the
 * CLI bound to it. Paths are the defaults a user has (`~/.gjc/agent/gjc-plugins`, `~/.codetwo`,
 * `~/.cache/gjc`), set explicitly so nothing of the machine's own environment leaks in.
 *
 *   const box = sandboxPerTest();          // at file level: every sandbox is removed after its test
 *   const s = box();
 *   await s.gjc(["plugin", "install", s.write("src/a", tree), "--user"]);
 *
 * or `using s = sandbox();` for one block. Processes a test starts itself go through
 * `spawnScoped` (`await using proc = spawnScoped([...])`): its own process group, killed and
 * reaped when the block ends, whatever happened in it.
 */
import { afterEach } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createContext, type Context } from "../../src/core/context.ts";
import { runCli, type CliOptions, type CliResult } from "./cli.ts";
import { tempDir, writeTree, type TreeSpec } from "./tmp.ts";

export interface Sandbox extends Disposable {
  root: string;
  home: string;
  /** GJC user scope root (GJC_USER_DIR). */
  user: string;
  /** C2 data directory (GJC_C2_DATA_DIR). */
  c2: string;
  /** A project directory; the CLI's default cwd. Its scope is `<project>/.gjc/gjc-plugins`. */
  project: string;
  /** The content cache (`~/.cache/gjc`). */
  cache: string;
  /** TMPDIR: exists, for the children gjc starts (gjc's own scratch is in the cache directory, src/sources/scratch.ts). */
  tmp: string;
  env: SandboxEnv;
  /** Runs the CLI in this sandbox (cwd: the project unless given). */
  gjc(
    args: string[],
    options?: Omit<CliOptions, "env"> & { env?: Record<string, string | undefined> },
  ): Promise<CliResult>;
  /**
   * A core Context in this sandbox, for tests that call core functions directly: the sandbox's
   * environment plus only PATH of the machine's (so nothing else leaks in), cwd the project.
   */
  context(options?: { env?: Record<string, string | undefined>; cwd?: string; now?: () => Date }): Context;
  /** Writes a tree under the root and returns its absolute path. */
  write(rel: string, spec: TreeSpec): string;
  cleanup(): void;
}

/** The environment a sandbox gives gjc: its paths are always set; `undefined` unsets a variable of the machine's. */
export interface SandboxEnv {
  HOME: string;
  GJC_USER_DIR: string;
  GJC_C2_DATA_DIR: string;
  TMPDIR: string;
  [name: string]: string | undefined;
}

export function sandbox(prefix = "gjc-sandbox-"): Sandbox {
  const t = tempDir(prefix);
  const home = join(t.path, "home");
  const project = join(t.path, "project");
  const tmp = join(t.path, "tmp");
  for (const d of [home, project, tmp]) mkdirSync(d, { recursive: true });
  const user = join(home, ".gjc", "agent", "gjc-plugins");
  const c2 = join(home, ".codetwo");
  const env: SandboxEnv = {
    HOME: home,
    GJC_USER_DIR: user,
    GJC_C2_DATA_DIR: c2,
    GJC_CACHE_DIR: undefined,
    XDG_CACHE_HOME: undefined,
    XDG_CONFIG_HOME: undefined,
    TMPDIR: tmp,
    // bun would otherwise keep its transpiler cache under $HOME, inside the tree tests snapshot
    BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0",
  };
  return {
    root: t.path,
    home,
    user,
    c2,
    project,
    cache: join(home, ".cache", "gjc"),
    tmp,
    env,
    gjc: (args, options = {}) =>
      runCli(args, { ...options, cwd: options.cwd ?? project, env: { ...env, ...options.env } }),
    context: (options = {}) =>
      createContext({
        env: { PATH: process.env.PATH, ...env, ...options.env },
        cwd: options.cwd ?? project,
        quiet: true,
        now: options.now,
      }),
    write: (rel, spec) => writeTree(join(t.path, rel), spec),
    cleanup: t.cleanup,
    [Symbol.dispose]: t.cleanup,
  };
}

/**
 * `const fresh = perTest(make)` at file level: every value `fresh()` makes in a test is disposed
 * after that test (for helpers that build a richer world on top of `sandbox`).
 */
export function perTest<T extends Disposable>(make: () => T): () => T {
  let made: T[] = [];
  afterEach(() => {
    for (const s of made) s[Symbol.dispose]();
    made = [];
  });
  return () => {
    const s = make();
    made.push(s);
    return s;
  };
}

/** `const box = sandboxPerTest()` at file level; each `box()` is removed after its test. */
export function sandboxPerTest(prefix?: string): () => Sandbox {
  return perTest(() => sandbox(prefix));
}

/** The machine's environment overlaid with `overlay`, for Bun.spawn (an `undefined` value unsets the variable). */
export function childEnv(overlay: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...overlay })) if (v !== undefined) env[k] = v;
  return env;
}

/** A child in its own process group; `proc` is the Bun subprocess (stdout and stderr piped). */
export interface ScopedProcess extends AsyncDisposable {
  proc: Bun.Subprocess<"ignore" | "pipe", "pipe", "pipe">;
}

/**
 * Bun.spawn in its own process group, for `await using`: leaving the block kills the whole group
 * (SIGKILL, grandchildren included) and waits until the child is reaped. (A Bun subprocess's own
 * asyncDispose signals only the child, which is why this wraps it.)
 */
export function spawnScoped(
  cmd: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; stdin?: "ignore" | "pipe" } = {},
): ScopedProcess {
  const proc = Bun.spawn(cmd, {
    cwd: options.cwd,
    env: childEnv(options.env),
    stdin: options.stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  return {
    proc,
    async [Symbol.asyncDispose]() {
      // the group, not just the child: a grandchild may outlive its parent (while any member
      // lives, the group id cannot be reused, so this never reaches a stranger)
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch {
        // the group is already gone
      }
      await proc.exited;
    },
  };
}
