import { lstatSync } from "node:fs";
import { join, sep } from "node:path";
import { hasControlChars } from "./names.ts";

/**
 * Lexical rules for a path that a manifest declares: relative POSIX, no `.`/`..`/empty
 * segment, no backslash, colon (drive letters, NTFS streams) or leading `/`, no control
 * characters. Returns the reason it is refused, or undefined when it is acceptable.
 */
export function relativePathProblem(p: string): string | undefined {
  if (typeof p !== "string" || p.length === 0) return "is empty";
  if (hasControlChars(p)) return "contains a control character";
  if (p.includes("\\")) return "contains a backslash (use / as the separator)";
  if (p.includes(":")) return "contains a colon";
  if (p.startsWith("/")) return "is absolute";
  for (const segment of p.split("/")) {
    if (segment === "") return "has an empty segment";
    if (segment === "." || segment === "..") return `has a "${segment}" segment`;
  }
  return undefined;
}

/** Whether `p` passes relativePathProblem (the one relative-path judge of gjc). */
export const isSafeRelativePath = (p: string): boolean => relativePathProblem(p) === undefined;

/** Strips one leading `./` (C2 manifests write bundle-relative commands as `./bin/x`). */
export function stripDotSlash(p: string): string {
  return p.startsWith("./") ? p.slice(2) : p;
}

export type WalkResult =
  | { ok: true; kind: "file" | "dir" }
  | { ok: false; reason: "missing" | "symlink" | "not_file" | "not_dir" | "special"; at: string };

/**
 * Walks `rel` under `root` one component at a time with lstat, so no component may be a
 * symlink (a link inside the bundle that points outside would otherwise be followed).
 *
 * Runs once per declared file at start-up, so it avoids per-component allocations: no
 * filter (a JS-implemented builtin), the failing prefix is built only on failure, and a
 * plain name is appended with the separator to a path that join already normalized and that ends in
 * a plain name (exactly what join would give); the first component and ".." and whatever
 * follows ".." still go through join.
 */
export function walkInside(root: string, rel: string, want: "file" | "dir"): WalkResult {
  const parts = rel.split("/");
  let lastIndex = -1;
  for (let i = parts.length - 1; i >= 0; i--) {
    if (parts[i] !== "" && parts[i] !== ".") {
      lastIndex = i;
      break;
    }
  }
  let current = root;
  let canAppend = false;
  for (let i = 0; i <= lastIndex; i++) {
    const part = parts[i];
    if (part === "" || part === ".") continue;
    current = canAppend && part !== ".." ? `${current}${sep}${part}` : join(current, part);
    canAppend = part !== "..";
    let st;
    try {
      st = lstatSync(current);
    } catch {
      return { ok: false, reason: "missing", at: prefixOf(parts, i) };
    }
    if (st.isSymbolicLink()) return { ok: false, reason: "symlink", at: prefixOf(parts, i) };
    if (i !== lastIndex) {
      if (!st.isDirectory()) return { ok: false, reason: "missing", at: prefixOf(parts, i) };
      continue;
    }
    if (want === "dir") return st.isDirectory() ? { ok: true, kind: "dir" } : { ok: false, reason: "not_dir", at: prefixOf(parts, i) };
    if (st.isFile()) return { ok: true, kind: "file" };
    if (st.isDirectory()) return { ok: false, reason: "not_file", at: prefixOf(parts, i) };
    return { ok: false, reason: "special", at: prefixOf(parts, i) };
  }
  return want === "dir" ? { ok: true, kind: "dir" } : { ok: false, reason: "not_file", at: rel };
}

/** The components up to and including `last`, without empty and "." ones, joined by "/". */
function prefixOf(parts: string[], last: number): string {
  let out = "";
  for (let i = 0; i <= last; i++) {
    if (parts[i] === "" || parts[i] === ".") continue;
    out = out === "" ? parts[i] : `${out}/${parts[i]}`;
  }
  return out;
}
