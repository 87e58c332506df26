import { lstatSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";

export type Target = { kind: "gjc"; dir: string } | { kind: "c2"; dir: string } | { kind: "catalog"; file: string };

export const GJC_MANIFEST = "gajae-plugin.json";
export const C2_MANIFEST = "plugin.json";
export const CATALOG_FILE = "marketplace.json";

/** Whether something (file, folder or link, not followed) is at `path`. */
export function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides what a path names. `gajae-plugin.json` wins over `plugin.json` (the GJC seed routes
 * it first); a directory with only `marketplace.json` is a catalog. The bundle root must be
 * selected explicitly: parents and children are never searched.
 */
export function detectTarget(input: string, cwd: string): Target {
  const path = resolve(cwd, input);
  let st;
  try {
    st = lstatSync(path);
  } catch {
    throw notFoundError(input);
  }
  if (st.isSymbolicLink()) throw linkedRootError(input);
  if (st.isFile()) {
    const name = basename(path);
    if (name === CATALOG_FILE) return { kind: "catalog", file: path };
    if (name === GJC_MANIFEST) return { kind: "gjc", dir: resolve(path, "..") };
    if (name === C2_MANIFEST) return { kind: "c2", dir: resolve(path, "..") };
    throw new GjcError({
      code: "unknown_target",
      message: `${input} is not a bundle directory, a manifest or a marketplace.json.`,
      hint: "Pass the bundle directory.",
      exit: ExitCode.usage,
    });
  }
  if (!st.isDirectory()) {
    throw new GjcError({
      code: "unknown_target",
      message: `${input} is not a directory or a file.`,
      exit: ExitCode.usage,
    });
  }
  if (entryExists(join(path, GJC_MANIFEST))) return { kind: "gjc", dir: path };
  if (entryExists(join(path, C2_MANIFEST))) return { kind: "c2", dir: path };
  if (entryExists(join(path, CATALOG_FILE))) return { kind: "catalog", file: join(path, CATALOG_FILE) };
  throw noManifestError(input, [GJC_MANIFEST, C2_MANIFEST, CATALOG_FILE]);
}

/** A bundle path that is itself a symbolic link: the same answer from validate and install. */
export function linkedRootError(input: string): GjcError {
  return new GjcError({
    code: "unsafe_path",
    message: `${input} is a symbolic link.`,
    hint: "Pass the real directory; gjc never follows links into a bundle.",
    exit: ExitCode.failed,
  });
}

/** A path that is not there: the same answer from every verb (validate, install, …). */
export function notFoundError(input: string): GjcError {
  return new GjcError({
    code: "not_found",
    message: `${input} does not exist.`,
    hint: "Pass the bundle directory (the one holding plugin.json or gajae-plugin.json) or a marketplace.json file.",
    exit: ExitCode.usage,
  });
}

/** A folder without any manifest: the same answer from every verb. */
export function noManifestError(input: string, manifests: string[]): GjcError {
  return new GjcError({
    code: "no_manifest",
    message: `${input} holds no ${manifests.slice(0, -1).join(", ")}${manifests.length > 1 ? " or " : ""}${manifests[manifests.length - 1]}.`,
    hint: "Select the bundle directory itself; gjc does not search parent or child folders.",
    exit: ExitCode.failed,
  });
}
