import { basename } from "node:path";
import { EMPTY_CONFIG_DEVICE, isolatingBunFlags } from "../../process/bun-flags.ts";
import type { C2LanguageServer } from "./types.ts";
import { resolveRuntimeCommand } from "./runtime-command.ts";

/** The exact argv and declared env a language server gets. */
export interface LspLaunchPlan {
  command: string;
  /** The full argument list: gjc's bun isolation flags (bun only), then the declared args verbatim. */
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Variables gjc sets for the server: PLUGIN_ROOT, PLUGIN_DATA, PLUGIN_PROJECT_DIR (nothing is expanded). */
  exported: Record<string, string>;
}

const isBun = (command: string, resolved: string) =>
  command === "bun" || basename(resolved) === "bun" || basename(resolved) === "bun.exe";

/**
 * Args and env exactly as the manifest declares them: the standard passes args verbatim, so a
 * `${PLUGIN_ROOT}` in them reaches the server as those characters. The working directory is the
 * project root; the bundle, its data directory and the project are exported as PLUGIN_ROOT,
 * PLUGIN_DATA and PLUGIN_PROJECT_DIR for a server that needs to find them. A server run by bun
 * gets the flags every bun child of gjc gets first, so the project's `.env` and `bunfig.toml`
 * (a preload) never run inside it.
 */
export function lspLaunchPlan(
  bundle: { bundleDir: string; dataDir: string },
  server: C2LanguageServer,
  cwd: string,
  env: Record<string, string | undefined>,
): LspLaunchPlan {
  const command = resolveRuntimeCommand(server.command, bundle.bundleDir, env);
  return {
    command,
    args: [...(isBun(server.command, command) ? isolatingBunFlags(EMPTY_CONFIG_DEVICE) : []), ...server.args],
    env: { ...server.env },
    cwd,
    exported: { PLUGIN_ROOT: bundle.bundleDir, PLUGIN_DATA: bundle.dataDir, PLUGIN_PROJECT_DIR: cwd },
  };
}
