import { join } from "node:path";
import { EMPTY_CONFIG_DEVICE, isolatingBunFlags } from "../bun-flags.ts";

/**
 * How gjc runs itself again: the compiled binary is its own program; from source it is bun
 * with our entry script, with the flags that keep a bunfig.toml or .env in the child's working
 * directory (a bundle, a project) from acting before the stage has confined itself.
 */
export function selfArgv(): string[] {
  if (isCompiled()) return [process.execPath];
  return [process.execPath, ...isolatingBunFlags(EMPTY_CONFIG_DEVICE), join(import.meta.dir, "..", "..", "cli.ts")];
}

/** Inside a `bun build --compile` binary, modules live in Bun's embedded file system. */
export const isCompiled = () => import.meta.path.startsWith("/$bunfs/") || import.meta.path.includes("~BUN");
