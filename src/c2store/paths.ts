import { join } from "node:path";
import { c2DataDir, type Context } from "../core/context.ts";

/**
 * The C2 data directory layout (c2-notes §4.1). Everything C2 that gjc writes lives under
 * `c2DataDir(ctx)`; nothing here touches the file system.
 */
export interface C2Layout {
  root: string;
  /** `<data>/plugins`: one directory per installed bundle, named by its installed id. */
  plugins: string;
  /** `<data>/plugins/.data`: per-bundle data directories (kept apart so a reinstall keeps them). */
  dataRoot: string;
  /** Policy primary, last-known-good snapshot, and stored plans. */
  policy: string;
  policyLastGood: string;
  plans: string;
}

export function c2Layout(ctx: Context): C2Layout {
  const root = c2DataDir(ctx);
  const plugins = join(root, "plugins");
  return {
    root,
    plugins,
    dataRoot: join(plugins, ".data"),
    policy: join(root, "plugin-config.json"),
    policyLastGood: join(root, "plugin-config.last-good.json"),
    plans: join(root, "plugin-plans"),
  };
}

export const RECORD_FILE = "installed-plugin.json";

/** The lock every C2 mutation holds (in the data root). */
export const C2_LOCK_FILE = "c2.lock";

export function bundleHome(layout: C2Layout, id: string): string {
  return join(layout.plugins, id);
}

export function bundleDir(layout: C2Layout, id: string): string {
  return join(layout.plugins, id, "bundle");
}

export function recordPath(layout: C2Layout, id: string): string {
  return join(layout.plugins, id, RECORD_FILE);
}

export function userDataDir(layout: C2Layout, id: string): string {
  return join(layout.dataRoot, id);
}

/** Project-scope data: `.data/<id>/projects/<blake3 of the normalized project path>`. */
export function projectDataDir(layout: C2Layout, id: string, projectHash: string): string {
  return join(layout.dataRoot, id, "projects", projectHash);
}

/** Policy key of a bundle runtime (`bundle:<installed id>`). */
export function policyKey(id: string): string {
  return id.startsWith("bundle:") ? id : `bundle:${id}`;
}

/** The installed id inside a policy key, or the value itself when it has no prefix. */
export function idFromPolicyKey(key: string): string {
  return key.startsWith("bundle:") ? key.slice("bundle:".length) : key;
}
