/**
 * Reading registry.json's text, and what its absence means, apart from the parse and checks
 * (registry.ts): `list` of a scope without a registry (a project that installed nothing, the
 * usual case) answers from this alone, without loading the registry's reader and schema.
 */
import { lstatSync } from "node:fs";
import { readRegularFile } from "../bundle/read-file.ts";
import { isGjcError } from "../core/errors.ts";
import { lastGoodPath, MAX_REGISTRY_BYTES, registryPath } from "../families/gjc/layout.ts";

/** `text` undefined: there is no registry, so the scope is empty. */
export type RegistryFile = { ok: true; text: string | undefined } | { ok: false; problem: string };

/** registry.json's text, read without following a link and never more than MAX_REGISTRY_BYTES into memory. */
export function readRegistryFile(root: string): RegistryFile {
  try {
    return {
      ok: true,
      text: new TextDecoder().decode(readRegularFile(registryPath(root), MAX_REGISTRY_BYTES, "registry.json").bytes),
    };
  } catch (error) {
    if (isGjcError(error) && error.code !== "missing_file") {
      return {
        ok: false,
        problem:
          error.code === "file_too_large"
            ? `registry.json is larger than gjc ever writes (${MAX_REGISTRY_BYTES} bytes)`
            : error.message,
      };
    }
    const code = isGjcError(error) ? "ENOENT" : (error as NodeJS.ErrnoException).code;
    // ENOTDIR: the scope root (or a parent) is a file; there is no registry, and a write there
    // reports not_a_directory with the file named (src/core/os-errors.ts).
    if (code === "ENOENT" || code === "ENOTDIR") {
      // registry.json gone while its last good copy is there: not an empty scope. Treating it
      // as one would let the next command sweep every content directory as an orphan.
      if (code === "ENOENT" && hasLastGood(root))
        return {
          ok: false,
          problem: "registry.json is missing while its last good copy is beside it (restore it with doctor --fix)",
        };
      return { ok: true, text: undefined };
    }
    return { ok: false, problem: `it could not be read (${code ?? "error"})` };
  }
}

function hasLastGood(root: string): boolean {
  try {
    return lstatSync(lastGoodPath(root)).isFile();
  } catch {
    return false;
  }
}
