/**
 * Shared pieces of the plugin-set e2e tests: a world (home, user scope, project, C2 data dir,
 * content cache) with a sandboxed git, bundles in real local git repositories, and the
 * expected integrity computed independently from the files themselves.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, type CliResult } from "../helpers/cli.ts";
import { gitSandbox, makeRepo, type GitSandbox, type TestRepo } from "../helpers/git.ts";
import { makeWorld, writeBundle, type BundleOptions, type World } from "./gjc-install-fixture.ts";

export interface SetWorld extends World {
  sandbox: GitSandbox;
  cache: string;
  lock: string;
  /** A bundle in its own git repository (files as writeBundle writes them). */
  repo(name: string, o?: BundleOptions): TestRepo;
  /** The same CLI with another HOME/project (a fresh machine sharing nothing but what is copied). */
}

export function makeSetWorld(): SetWorld {
  const w = makeWorld();
  const sandbox = gitSandbox(join(w.root, "git"));
  const cache = join(w.root, "cache");
  // The world's HOME for gjc; git reads its config from the sandbox (GIT_CONFIG_GLOBAL). w.gjc
  // runs with w.env, so this is what every command of the world sees.
  Object.assign(w.env, { ...sandbox.env, HOME: w.home, GJC_CACHE_DIR: cache });
  return {
    ...w,
    sandbox,
    cache,
    lock: join(w.project, ".gjc", "plugins.lock.json"),
    repo(name, o = {}) {
      const dir = join(w.root, "repos", name);
      writeBundle(dir, name, o);
      const r = makeRepo(sandbox, dir, {}, { allowShaWant: true });
      return r;
    },
  };
}

/** sha256 of every regular file under a dir: { relPath: "mode:sha256" } (what "byte-exact" means). */
export function fileHashes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = statSync(abs);
      if (st.isDirectory()) walk(abs, r);
      else out[r] = `${(st.mode & 0o777).toString(8)}:${createHash("sha256").update(readFileSync(abs)).digest("hex")}`;
    }
  };
  walk(root, "");
  return out;
}

/** The documented integrity encoding, computed here from the files on disk. */
export function integrityOfDir(root: string): string {
  const files = Object.entries(fileHashes(root)).map(([path, v]) => ({
    path,
    mode: v.split(":")[0].padStart(4, "0"),
    sha: v.split(":")[1],
  }));
  files.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const text = files.map((f) => `${f.path}\0${f.mode}\0${f.sha}\n`).join("");
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

export function registry(scopeRoot: string): {
  plugins: {
    name: string;
    version: string;
    dir: string;
    pluginRoot: string;
    enabled: boolean;
    source: Record<string, string>;
  }[];
} {
  return JSON.parse(readFileSync(join(scopeRoot, "registry.json"), "utf8"));
}

export function errorOf(r: CliResult): { code: string; message: string } {
  const line = r.stderr.split("\n").find((l) => l.startsWith('{"error"'));
  if (!line) throw new Error(`no JSON error on stderr (exit ${r.exitCode}):\n${r.stderr}\n${r.stdout}`);
  return JSON.parse(line).error;
}

/**
 * Whether this machine lets us run a child in a network namespace with no network at all
 * (`unshare -n`: root, or unprivileged user namespaces). Where it does not, the offline tests
 * still hold because their sources are removed first (nothing could be fetched), but the
 * stronger proof (no network at all) is only made here.
 */
export const canUnshareNet = (() => {
  const r = spawnSync("unshare", ["-n", "true"], { stdio: "ignore" });
  return r.status === 0;
})();

/** The CLI in a network namespace without network when available (see canUnshareNet). */
export function netlessCli(
  w: SetWorld,
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const argv = [process.execPath, join(repoRoot, "src", "cli.ts"), ...args];
  const cmd = canUnshareNet ? ["unshare", "-n", ...argv] : argv;
  const r = spawnSync(cmd[0], cmd.slice(1), {
    cwd: w.project,
    env: { ...process.env, ...w.env, NO_COLOR: "1", ...env },
    encoding: "utf8",
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}
