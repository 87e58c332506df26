import type { C2LanguageServer } from "./types.ts";
import { resolveRuntimeCommand } from "./runtime-command.ts";

/** The exact argv and declared env a language server gets, after gjc's documented expansion. */
export interface LspLaunchPlan {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** gjc extension: `${PLUGIN_ROOT}`, `${PLUGIN_DATA}`, `${PLUGIN_PROJECT_DIR}` expanded and exported. */
  expanded: Record<string, string>;
}

/**
 * Args and env as the manifest declares them, with one documented extension (as the reference
 * host does): `${PLUGIN_ROOT}`, `${PLUGIN_DATA}` and `${PLUGIN_PROJECT_DIR}` are expanded in
 * args and env values and exported as variables; nothing else is touched.
 */
export function lspLaunchPlan(bundle: { bundleDir: string; dataDir: string }, server: C2LanguageServer, cwd: string, env: Record<string, string | undefined>): LspLaunchPlan {
  const vars: Record<string, string> = { PLUGIN_ROOT: bundle.bundleDir, PLUGIN_DATA: bundle.dataDir, PLUGIN_PROJECT_DIR: cwd };
  const expand = (v: string) => v.replace(/\$\{(PLUGIN_ROOT|PLUGIN_DATA|PLUGIN_PROJECT_DIR)\}/g, (_, k: string) => vars[k]);
  return {
    command: resolveRuntimeCommand(server.command, bundle.bundleDir, env),
    args: server.args.map(expand),
    env: Object.fromEntries(Object.entries(server.env).map(([k, v]) => [k, expand(v)])),
    cwd,
    expanded: vars,
  };
}

