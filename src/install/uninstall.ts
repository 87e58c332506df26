import { lstatSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { walkInside } from "../bundle/path-safety.ts";
import type { Context } from "../core/context.ts";
import { crashPoint } from "../store/crash-hook.ts";
import { scopeRoot } from "./layout.ts";
import { notInstalled } from "./not-installed.ts";
import { readRegistry, writeRegistry } from "./registry.ts";
import type { RegistryEntry, Scope } from "./registry-types.ts";
import { withScopes } from "./scope-session.ts";
import { retireDir } from "./transaction.ts";

export interface UninstallResult {
  status: "uninstalled" | "would-uninstall";
  name: string;
  version: string;
  scope: Scope;
  /** Files owned by the bundle (removed, or that would be). */
  files: string[];
  /** Things found in the content directory that the bundle did not install (removed with it). */
  unowned: string[];
}

function listRemaining(dir: string, rel = ""): string[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, rel));
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const r = rel ? `${rel}/${n}` : n;
    const w = walkInside(dir, r, "dir");
    return w.ok ? [...listRemaining(dir, r)] : [r];
  });
}

/**
 * Removes exactly the files the registry says the bundle owns, never through a link (a parent
 * directory swapped for a symlink is not entered), then the directories they emptied. The
 * registry entry goes first, as the commit point: a crash after it leaves an unreferenced
 * content directory, which the next command sweeps; a crash before it leaves the bundle whole.
 */
function removeOwned(ctx: Context, root: string, entry: RegistryEntry): string[] {
  // A content directory that became a link (or a file) is removed as that, never entered:
  // the files the registry names would otherwise be deleted wherever the link points.
  let st;
  try {
    st = lstatSync(entry.pluginRoot);
  } catch {
    return [];
  }
  if (!st.isDirectory()) {
    try {
      unlinkSync(entry.pluginRoot);
    } catch {}
    return ["."];
  }
  const dirs = new Set<string>();
  for (const f of entry.copiedFiles) {
    if (walkInside(entry.pluginRoot, f.relativePath, "file").ok) {
      try {
        unlinkSync(join(entry.pluginRoot, f.relativePath));
      } catch {}
    }
    for (let d = dirname(f.relativePath); d !== "."; d = dirname(d)) dirs.add(d);
    crashPoint(ctx, "uninstall:removing");
  }
  for (const d of [...dirs].sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? 1 : -1))) {
    if (walkInside(entry.pluginRoot, d, "dir").ok) {
      try {
        rmdirSync(join(entry.pluginRoot, d));
      } catch {}
    }
  }
  const unowned = listRemaining(entry.pluginRoot);
  try {
    rmdirSync(entry.pluginRoot);
  } catch {
    // Something the bundle did not install is still there: the directory is ours, retire it whole.
    retireDir(ctx, root, entry.pluginRoot);
  }
  return unowned;
}

export async function uninstallGjc(ctx: Context, name: string, scope: Scope, opts: { dryRun?: boolean } = {}): Promise<UninstallResult> {
  const root = scopeRoot(ctx, scope);
  const pre = readRegistry(root, scope, ctx).plugins.find((p) => p.name === name);
  if (!pre) throw notInstalled(name, scope);
  const base = { name, version: pre.version, scope, files: pre.copiedFiles.map((f) => f.relativePath) };
  if (opts.dryRun) return { status: "would-uninstall", ...base, unowned: [] };
  return withScopes(ctx, scope, "gjc plugin uninstall", false, (s) => {
    const entry = s.target.registry.plugins.find((p) => p.name === name);
    if (!entry) throw notInstalled(name, scope);
    writeRegistry(s.target.root, { version: 1, scope, plugins: s.target.registry.plugins.filter((p) => p.name !== name) }, ctx, () => crashPoint(ctx, "uninstall:committed"));
    const unowned = removeOwned(ctx, s.target.root, entry);
    return { status: "uninstalled", name, version: entry.version, scope, files: entry.copiedFiles.map((f) => f.relativePath), unowned };
  });
}
