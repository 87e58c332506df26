/**
 * The scaffolds of installed C2 bundles: each non-empty folder under `scaffolds/` or
 * `templates/` of the verbatim bundle (c2-notes §3.5), read from the installed record's file
 * list, so only files gjc installed and hashed are ever offered. `scaffold.json` in the folder
 * gives an optional `name` and `description` and is metadata, never copied.
 */
import { join } from "node:path";
import { C2_LIMITS } from "../bundle/limits.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { slugHash } from "../families/c2/ids.ts";
import type { InstalledC2 } from "../c2store/records.ts";
import type { RecordFile } from "../c2store/record.ts";

export const SCAFFOLD_CONTAINERS = ["scaffolds", "templates"] as const;
export const SCAFFOLD_META = "scaffold.json";

export interface ScaffoldEntry {
  /** The bundle's installed id. */
  plugin: string;
  pluginName: string;
  /** Persisted id `<plugin-id>:scaffold:<slug-hash of container/dir>`. */
  id: string;
  /** Folder name: the `<scaffold>` in `<bundle>/<scaffold>`. */
  name: string;
  /** Bundle-relative folder, e.g. `scaffolds/web-app`. */
  path: string;
  title: string;
  description: string;
  /** The template files, relative to the folder (scaffold.json excluded). */
  files: (RecordFile & { rel: string })[];
}

function metaOf(bundle: InstalledC2, path: string): { title?: string; description?: string } {
  const rel = `${path}/${SCAFFOLD_META}`;
  if (!bundle.record.files.some((f) => f.path === rel)) return {};
  try {
    const meta = JSON.parse(
      new TextDecoder().decode(readRegularFile(join(bundle.bundleDir, rel), C2_LIMITS.maxFileBytes).bytes),
    );
    return {
      ...(typeof meta?.name === "string" && meta.name.trim() ? { title: meta.name.trim() } : {}),
      ...(typeof meta?.description === "string" ? { description: meta.description.trim() } : {}),
    };
  } catch {
    return {}; // validate already warned (invalid_scaffold); the folder name is used
  }
}

/** Every scaffold of one installed bundle, in container then folder order. */
export function bundleScaffolds(bundle: InstalledC2): ScaffoldEntry[] {
  const byPath = new Map<string, ScaffoldEntry>();
  for (const file of bundle.record.files) {
    const parts = file.path.split("/");
    if (parts.length < 3 || !(SCAFFOLD_CONTAINERS as readonly string[]).includes(parts[0])) continue;
    const path = `${parts[0]}/${parts[1]}`;
    const rel = parts.slice(2).join("/");
    let entry = byPath.get(path);
    if (!entry) {
      entry = {
        plugin: bundle.id,
        pluginName: bundle.name,
        id: `${bundle.id}:scaffold:${slugHash(path)}`,
        name: parts[1],
        path,
        title: parts[1],
        description: "",
        files: [],
      };
      byPath.set(path, entry);
    }
    if (rel !== SCAFFOLD_META) entry.files.push({ ...file, rel });
  }
  const out: ScaffoldEntry[] = [];
  for (const entry of [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (entry.files.length === 0) continue;
    const meta = metaOf(bundle, entry.path);
    out.push({ ...entry, title: meta.title ?? entry.title, description: meta.description ?? "" });
  }
  return out;
}

/**
 * Resolves `<scaffold>` within a bundle: its folder name, `<container>/<folder>`, its title or
 * its persisted id. A name two containers share is ambiguous and refused, never guessed.
 */
export function findScaffold(bundle: InstalledC2, key: string): ScaffoldEntry {
  const all = bundleScaffolds(bundle);
  const matches = all.filter(
    (s) => s.path === key || s.id === key || s.id.endsWith(`:${key}`) || s.name === key || s.title === key,
  );
  const exact = matches.filter((s) => s.path === key || s.id === key);
  const pick = exact.length === 1 ? exact : matches;
  if (pick.length === 1) return pick[0];
  if (pick.length > 1) {
    throw new GjcError({
      code: "ambiguous_scaffold",
      message: `${bundle.name} has several scaffolds named ${key}: ${pick.map((s) => s.path).join(", ")}.`,
      hint: `Name it by its folder, e.g. ${bundle.name}/${pick[0].path}.`,
      exit: ExitCode.usage,
    });
  }
  throw new GjcError({
    code: "unknown_scaffold",
    message: `${bundle.name} has no scaffold ${key}.`,
    hint:
      all.length === 0
        ? `${bundle.name} ships no scaffolds (folders under scaffolds/ or templates/).`
        : `Scaffolds of ${bundle.name}: ${all.map((s) => s.name).join(", ")}.`,
    exit: ExitCode.usage,
  });
}

export interface ScaffoldListRow {
  plugin: string;
  pluginName: string;
  enabled: boolean;
  quarantined: boolean;
  id: string;
  name: string;
  path: string;
  title: string;
  description: string;
  files: number;
}

/** `gjc plugin scaffold list [<bundle>]`. */
export async function listScaffolds(ctx: Context, bundleName?: string): Promise<{ scaffolds: ScaffoldListRow[] }> {
  const { listInstalledC2, findInstalledC2 } = await import("../c2store/records.ts");
  let bundles: InstalledC2[];
  if (bundleName !== undefined) {
    const one = findInstalledC2(ctx, bundleName);
    if (!one)
      throw new GjcError({
        code: "not_installed",
        message: `No C2 bundle named ${bundleName} is installed.`,
        hint: 'Run "gjc plugin list" to see the installed bundles.',
      });
    bundles = [one];
  } else {
    bundles = listInstalledC2(ctx);
  }
  const scaffolds: ScaffoldListRow[] = [];
  for (const b of bundles) {
    for (const s of bundleScaffolds(b)) {
      scaffolds.push({
        plugin: b.id,
        pluginName: b.name,
        enabled: b.enabled,
        quarantined: b.quarantine !== null,
        id: s.id,
        name: s.name,
        path: s.path,
        title: s.title,
        description: s.description,
        files: s.files.length,
      });
    }
  }
  return { scaffolds };
}
