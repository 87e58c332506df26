import { closeSync, lstatSync, mkdirSync, openSync, rmdirSync, rmSync, writeSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { Context } from "../core/context.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { osErrorFrom } from "../core/os-errors.ts";
import { c2Template, gjcTemplate, type ScaffoldFile } from "./templates.ts";

export interface ScaffoldRequest {
  dir: string;
  family: "c2" | "gjc";
  name?: string;
  runtime?: "node" | "bun";
}

export interface ScaffoldResult {
  dir: string;
  family: "c2" | "gjc";
  name: string;
  files: { path: string; bytes: number }[];
}

const C2_NAME = /^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;
const GJC_NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$/;

/** A plugin name derived from a folder name, lowercased to the strictest grammar of both families. */
export function nameFromDir(dir: string): string {
  return dir
    .split(/[\\/]/)
    .filter(Boolean)
    .pop()!
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[.-]+|[.-]+$/g, "")
    .slice(0, 64);
}

/**
 * Writes a new bundle. Every target path is checked before the first byte is written, files
 * are created exclusively, and if anything fails midway every file and directory this call
 * created is removed again: no overwrite and no partial scaffold.
 */
export function scaffoldBundle(ctx: Context, req: ScaffoldRequest): ScaffoldResult {
  const dir = resolve(ctx.cwd, req.dir);
  const name = req.name ?? nameFromDir(dir);
  const grammar = req.family === "c2" ? C2_NAME : GJC_NAME;
  if (!name || !grammar.test(name) || name.length > (req.family === "c2" ? 64 : 128)) {
    throw usageError(
      `"${name}" is not a valid ${req.family === "c2" ? "C2 (Agent Plugins)" : "GJC"} plugin name.`,
      req.family === "c2" ? "Use lowercase letters, digits, dots and hyphens (starting and ending with a letter or digit), e.g. --name my-plugin." : "Use letters, digits, dot, underscore or hyphen, e.g. --name my-bundle.",
      "invalid_name",
    );
  }
  if (req.family === "gjc" && req.runtime) {
    throw usageError("--runtime applies to C2 bundles only.", "GJC bundles ship tools and hooks as modules; drop --runtime.", "invalid_option_value");
  }
  const files: ScaffoldFile[] = req.family === "c2" ? c2Template(name, req.runtime) : gjcTemplate(name);

  const conflicts = files.flatMap((f) => conflictsFor(dir, f.path));
  if (conflicts.length > 0) {
    throw new GjcError({
      code: "scaffold_conflict",
      message: `Refusing to scaffold into ${req.dir}: ${[...new Set(conflicts)].join(", ")} already exist${conflicts.length === 1 ? "s" : ""}.`,
      hint: "Choose a new or empty directory; gjc plugin init never overwrites files.",
      details: { conflicts: [...new Set(conflicts)] },
    });
  }

  const createdDirs: string[] = [];
  const createdFiles: string[] = [];
  try {
    for (const f of files) {
      const abs = join(dir, f.path);
      ensureDirs(dirname(abs), createdDirs);
      const fd = openSync(abs, "wx", f.mode ?? 0o644);
      try {
        createdFiles.push(abs);
        const bytes = Buffer.from(f.content);
        let offset = 0;
        while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
      } finally {
        closeSync(fd);
      }
    }
  } catch (error) {
    for (const f of createdFiles.reverse()) rmSync(f, { force: true });
    for (const d of createdDirs.reverse()) {
      try {
        rmdirSync(d);
      } catch {
        // Not empty: someone else wrote there meanwhile; leave it.
      }
    }
    throw osErrorFrom(error) ?? new GjcError({
      code: "scaffold_failed",
      message: `Could not write the scaffold in ${req.dir}: ${(error as Error).message}`,
      hint: "Nothing was left behind; check the directory's permissions and try again.",
    });
  }
  return { dir, family: req.family, name, files: files.map((f) => ({ path: f.path, bytes: Buffer.byteLength(f.content) })) };
}

/** The paths (relative to dir) that stop `rel` from being created: an existing entry or a non-directory parent. */
function conflictsFor(dir: string, rel: string): string[] {
  const out: string[] = [];
  const parts = rel.split("/");
  let current = dir;
  for (let i = 0; i < parts.length; i++) {
    current = join(current, parts[i]);
    let st;
    try {
      st = lstatSync(current);
    } catch {
      break;
    }
    const last = i === parts.length - 1;
    if (last || !st.isDirectory()) {
      out.push(relative(dir, current));
      break;
    }
  }
  const base = lstatOrUndefined(dir);
  if (base && !base.isDirectory()) out.push(".");
  return out;
}

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

function ensureDirs(dir: string, created: string[]): void {
  const missing: string[] = [];
  let current = dir;
  while (!lstatOrUndefined(current)) {
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const d of missing.reverse()) {
    mkdirSync(d);
    created.push(d);
  }
}
