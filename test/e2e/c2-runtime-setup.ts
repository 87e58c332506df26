import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setC2Enabled, setC2Trusted, installC2 } from "../../src/c2store/lifecycle.ts";
import { createContext, type Context } from "../../src/core/context.ts";
import { fetchSpec } from "../../src/install/fetch-source.ts";
import { perTest, sandbox, type Sandbox } from "../helpers/sandbox.ts";

/** The one sandbox (test/helpers/sandbox.ts) and a core Context bound to it (cwd: the root). */
export interface C2Home extends Sandbox {
  ctx: Context;
  /** The C2 data directory (GJC_C2_DATA_DIR); the same as `c2`. */
  dataDir: string;
}

/**
 * For tests whose fixture processes report by writing a sentinel outside their sandbox (that
 * they started, their pid): gjc runs them unconfined (GJC_SANDBOX=off), so "no sentinel" still
 * proves "never started". The sandbox itself is tested in test/e2e/sandbox.test.ts.
 */
export function unconfined(h: C2Home): C2Home {
  (h.env as Record<string, string | undefined>).GJC_SANDBOX = "off";
  return h;
}

export function c2Home(): C2Home {
  const s = sandbox("gjc-c2e2e-");
  const ctx = createContext({ env: { ...process.env, ...s.env }, cwd: s.root, quiet: true });
  return { ...s, ctx, dataDir: s.c2 };
}

/**
 * Installs a bundle directory through the C2 store (the same code `gjc plugin install` runs)
 * and trusts it unless told not to. Returns the installed id.
 */
export async function installBundle(
  home: C2Home,
  dir: string,
  opts: { trust?: boolean; enabled?: boolean } = {},
): Promise<{ id: string; name: string }> {
  const fetched = await fetchSpec(home.ctx, dir);
  let result;
  try {
    result = await installC2(home.ctx, { fetched });
  } finally {
    await fetched.cleanup();
  }
  if (opts.trust !== false) await setC2Trusted(home.ctx, result.c2.id, true);
  if (opts.enabled === false) await setC2Enabled(home.ctx, result.c2.id, false);
  return { id: result.c2.id, name: result.name };
}

/** A real git repository with one committed file, one modified file and one untracked file. */
export async function dirtyRepo(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const git = async (...args: string[]) => {
    const p = Bun.spawn(["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", ...args], {
      cwd: dir,
      stdout: "ignore",
      stderr: "pipe",
    });
    if ((await p.exited) !== 0) throw new Error(`git ${args.join(" ")} failed: ${await new Response(p.stderr).text()}`);
  };
  await git("init", "-q", "-b", "main");
  writeFileSync(join(dir, "a.txt"), "one\n");
  writeFileSync(join(dir, "b.txt"), "two\n");
  await git("add", ".");
  await git("commit", "-q", "-m", "init");
  writeFileSync(join(dir, "a.txt"), "changed\n");
  writeFileSync(join(dir, "new file.txt"), "untracked\n");
  return dir;
}

/** Per-test C2 homes for one test file: `const home = c2HomesPerTest();`, all removed after each test. */
export function c2HomesPerTest(): () => C2Home {
  return perTest(c2Home);
}
