import { lstatSync, readdirSync, renameSync, rmdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { walkInside } from "../bundle/path-safety.ts";
import type { Context } from "../core/context.ts";
import { crashPoint } from "../store/crash-hook.ts";
import { scopeRoot } from "../families/gjc/layout.ts";
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
  /** What the content directory held that the bundle did not install: kept, never removed. */
  unowned: string[];
  /** Where those were kept (the content directory renamed out of gjc's names), when there were any. */
  keptIn?: string;
}

/**
 * The entries of a content directory the registry does not record (a file a user added, a
 * directory the bundle never had), without entering a link. Recorded files and the directories
 * that lead to them are the bundle's; everything else is someone else's.
 */
function unownedEntries(entry: RegistryEntry): string[] {
  const files = new Set(entry.copiedFiles.map((f) => f.relativePath));
  const dirs = new Set<string>();
  for (const f of files) for (let d = dirname(f); d !== "."; d = dirname(d)) dirs.add(d);
  const out: string[] = [];
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = readdirSync(join(entry.pluginRoot, rel)).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const r = rel ? `${rel}/${n}` : n;
      if (files.has(r) && walkInside(entry.pluginRoot, r, "file").ok) continue;
      if (dirs.has(r) && walkInside(entry.pluginRoot, r, "dir").ok) walk(r);
      else out.push(r);
    }
  };
  walk("");
  return out;
}

/** A name no gjc sweep matches (not a content, staging or trash directory): gjc never removes it. */
const keptDirName = (name: string, at: Date) => `${name}.kept-${at.toISOString().replace(/[-:.]/g, "")}`;

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
 * Removes a content directory that holds only what the registry records: exactly those files,
 * never through a link (a parent directory swapped for a symlink is not entered), then the
 * directories they emptied. The registry entry goes first, as the commit point: a crash after
 * it leaves an unreferenced content directory, which the next command sweeps; a crash before
 * it leaves the bundle whole.
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
  removeOwnedFiles(ctx, entry);
  const unowned = listRemaining(entry.pluginRoot);
  try {
    rmdirSync(entry.pluginRoot);
  } catch {
    // Something appeared since it was checked under the lock: the directory is ours, retire it whole.
    retireDir(ctx, root, entry.pluginRoot);
  }
  return unowned;
}

/** Unlinks the recorded files (never through a link), then the directories they emptied. */
function removeOwnedFiles(ctx: Context, entry: RegistryEntry): void {
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
}

export async function uninstallGjc(
  ctx: Context,
  name: string,
  scope: Scope,
  opts: { dryRun?: boolean } = {},
): Promise<UninstallResult> {
  const root = scopeRoot(ctx, scope);
  const pre = readRegistry(root, scope, ctx).plugins.find((p) => p.name === name);
  if (!pre) throw notInstalled(name, scope);
  const base = { name, version: pre.version, scope, files: pre.copiedFiles.map((f) => f.relativePath) };
  if (opts.dryRun) return { status: "would-uninstall", ...base, unowned: unownedEntries(pre) };
  return withScopes(ctx, scope, "gjc plugin uninstall", false, (s) => {
    const entry = s.target.registry.plugins.find((p) => p.name === name);
    if (!entry) throw notInstalled(name, scope);
    const isDir = (() => {
      try {
        return lstatSync(entry.pluginRoot).isDirectory();
      } catch {
        return false;
      }
    })();
    const unowned = isDir ? unownedEntries(entry) : [];
    if (unowned.length > 0) {
      // The registry's copied files are the ownership boundary: only they go. The directory
      // is first renamed out of gjc's names (before the commit, so no crash leaves the user's
      // files in an unreferenced content directory that the next command would sweep).
      const keptIn = join(s.target.root, keptDirName(name, ctx.now()));
      renameSync(entry.pluginRoot, keptIn);
      try {
        writeRegistry(
          s.target.root,
          { version: 1, scope, plugins: s.target.registry.plugins.filter((p) => p.name !== name) },
          ctx,
          () => crashPoint(ctx, "uninstall:committed"),
        );
      } catch (error) {
        // Not committed: the bundle goes back where its entry points.
        renameSync(keptIn, entry.pluginRoot);
        throw error;
      }
      removeOwnedFiles(ctx, { ...entry, pluginRoot: keptIn });
      return {
        status: "uninstalled",
        name,
        version: entry.version,
        scope,
        files: entry.copiedFiles.map((f) => f.relativePath),
        unowned,
        keptIn,
      };
    }
    writeRegistry(
      s.target.root,
      { version: 1, scope, plugins: s.target.registry.plugins.filter((p) => p.name !== name) },
      ctx,
      () => crashPoint(ctx, "uninstall:committed"),
    );
    // Empty unless something appeared after the check above (then it was retired with the directory).
    const appeared = removeOwned(ctx, s.target.root, entry);
    return {
      status: "uninstalled",
      name,
      version: entry.version,
      scope,
      files: entry.copiedFiles.map((f) => f.relativePath),
      unowned: appeared,
    };
  });
}
