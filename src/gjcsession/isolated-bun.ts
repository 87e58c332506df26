import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "../core/context.ts";
import { isolatingBunFlags } from "../process/bun-flags.ts";
import { childEnvironment } from "../process/env.ts";
import { privateScratch } from "../sources/scratch.ts";

/** The host variables a plugin child may see (one allow-list for every child gjc starts). */
export function childEnv(ctx: Context): Record<string, string> {
  return childEnvironment(ctx.env, {
    // Inside a `bun build --compile` binary this makes process.execPath act as the bun CLI; for
    // a plain bun it changes nothing. Either way the child is a bun runtime.
    BUN_BE_BUN: "1",
    // No transpiler cache: a check must not leave files behind in the user's home.
    BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0",
  });
}

/**
 * A private scratch directory holding an empty bunfig (so a `bunfig.toml` shipped in a bundle
 * can neither preload code nor change resolution) and any helper script we run. Removed by
 * `dispose()`.
 */
export interface Scratch {
  dir: string;
  emptyConfig: string;
  write(name: string, text: string): string;
  dispose(): void;
}

export function makeScratch(ctx: Context): Scratch {
  const dir = privateScratch(ctx, "run");
  const emptyConfig = join(dir, "bunfig.toml");
  writeFileSync(emptyConfig, "", { mode: 0o600 });
  return {
    dir,
    emptyConfig,
    write(name, text) {
      const p = join(dir, name);
      writeFileSync(p, text, { mode: 0o600 });
      return p;
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The argv of a bun child running `script`: our own runtime (the compiled gjc acts as bun). */
export function bunArgv(emptyConfig: string, script: string, args: string[] = []): string[] {
  return [process.execPath, ...isolatingBunFlags(emptyConfig), script, ...args];
}
