import { closeSync, lstatSync, mkdirSync, openSync, rmdirSync, rmSync, writeSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { Context } from "../core/context.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { osErrorFrom } from "../core/os-errors.ts";
import { SAFE_NAME } from "../families/gjc/constants.ts";
import { allowedPhases, parentKind, PROTECTED_PARENTS } from "../families/gjc/parents.ts";
import { planPackageScript, type PackageScriptOutcome } from "./package-script.ts";
import { c2Template, gjcTemplate, type ScaffoldFile, type SubskillBinding } from "./templates.ts";

export interface ScaffoldRequest {
  dir: string;
  family: "c2" | "gjc";
  name?: string;
  runtime?: "node" | "bun";
  /** GJC only: where the sub-skill binds (defaults: DEFAULT_BINDING, activation arg = the name). */
  parent?: string;
  phase?: string;
  activationArg?: string;
}

export interface ScaffoldResult {
  dir: string;
  family: "c2" | "gjc";
  name: string;
  files: { path: string; bytes: number }[];
  /** GJC: where the sub-skill binds. */
  subskill?: SubskillBinding;
  /** The bundle root's package.json: `plugin:validate` script added, an existing one kept, or no package.json. */
  packageScript: PackageScriptOutcome;
}

/**
 * The GJC template binds its sub-skill to ralplan's architect phase: install allows one
 * sub-skill per (parent, phase), and the shipped example review-kit takes ralplan's planner
 * phase, so a new bundle installs beside it.
 */
export const DEFAULT_BINDING = { parent: "ralplan", phase: "architect" } as const;

function resolveBinding(name: string, req: ScaffoldRequest): SubskillBinding {
  const parent = req.parent ?? DEFAULT_BINDING.parent;
  if (!parentKind(parent)) {
    throw usageError(
      `--parent ${parent} is not a parent a sub-skill may bind to.`,
      `Use one of ${PROTECTED_PARENTS.join(", ")}.`,
      "invalid_option_value",
    );
  }
  const phases = allowedPhases(parent);
  const phase = req.phase ?? (parent === DEFAULT_BINDING.parent ? DEFAULT_BINDING.phase : phases[0]);
  if (!phases.includes(phase)) {
    throw usageError(
      `--phase ${phase} is not a phase of ${parent}.`,
      `${parent} has the phases ${phases.join(", ")}.`,
      "invalid_option_value",
    );
  }
  const activationArg = req.activationArg ?? name;
  if (!SAFE_NAME.test(activationArg)) {
    throw usageError(
      `--activation-arg ${activationArg} is not a valid activation argument.`,
      'Use 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit.',
      "invalid_option_value",
    );
  }
  return { parent, phase, activationArg };
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
      req.family === "c2"
        ? "Use lowercase letters, digits, dots and hyphens (starting and ending with a letter or digit), e.g. --name my-plugin."
        : "Use letters, digits, dot, underscore or hyphen, e.g. --name my-bundle.",
      "invalid_name",
    );
  }
  if (req.family === "gjc" && req.runtime) {
    throw usageError(
      "--runtime applies to C2 bundles only.",
      "GJC bundles ship tools and hooks as modules; drop --runtime.",
      "invalid_option_value",
    );
  }
  if (req.family === "c2" && (req.parent || req.phase || req.activationArg)) {
    throw usageError(
      "--parent, --phase and --activation-arg apply to GJC bundles only.",
      "A C2 bundle has no sub-skills; drop them, or use --family gjc.",
      "invalid_option_value",
    );
  }
  const subskill = req.family === "gjc" ? resolveBinding(name, req) : undefined;
  const files: ScaffoldFile[] = subskill ? gjcTemplate(name, subskill) : c2Template(name, req.runtime);

  const conflicts = files.flatMap((f) => conflictsFor(dir, f.path));
  if (conflicts.length > 0) {
    throw new GjcError({
      code: "scaffold_conflict",
      message: `Refusing to scaffold into ${req.dir}: ${[...new Set(conflicts)].join(", ")} already exist${conflicts.length === 1 ? "s" : ""}.`,
      hint: "Choose a new or empty directory; gjc plugin init never overwrites files.",
      details: { conflicts: [...new Set(conflicts)] },
    });
  }

  const packageScript = planPackageScript(dir);
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
    packageScript.write?.();
  } catch (error) {
    for (const f of createdFiles.reverse()) rmSync(f, { force: true });
    for (const d of createdDirs.reverse()) {
      try {
        rmdirSync(d);
      } catch {
        // Not empty: someone else wrote there meanwhile; leave it.
      }
    }
    throw (
      osErrorFrom(error) ??
      new GjcError({
        code: "scaffold_failed",
        message: `Could not write the scaffold in ${req.dir}: ${(error as Error).message}`,
        hint: "Nothing was left behind; check the directory's permissions and try again.",
      })
    );
  }
  return {
    dir,
    family: req.family,
    name,
    files: files.map((f) => ({ path: f.path, bytes: Buffer.byteLength(f.content) })),
    ...(subskill ? { subskill } : {}),
    packageScript: packageScript.outcome,
  };
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
