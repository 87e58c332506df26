import { lstatSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
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

/**
 * `path` relative to `root` when it is `root` or lies below it ("" for `root` itself), else
 * undefined. Lexical only: whether a link on the way leads elsewhere is the caller's check.
 */
export function pathInside(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? undefined : rel;
}

export type WalkResult =
  | { ok: true; kind: "file" | "dir" }
  | { ok: false; reason: "missing" | "symlink" | "not_file" | "not_dir" | "special"; at: string };

/**
 * Walks `rel` under `root` one component at a time with lstat, so no component may be a
 * symlink (a link inside the bundle that points outside would otherwise be followed).
 * Empty and "." components are skipped; `at` names the components up to the failing one.
 */
export function walkInside(root: string, rel: string, want: "file" | "dir"): WalkResult {
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  let current = root;
  for (const [i, part] of parts.entries()) {
    current = join(current, part);
    const at = parts.slice(0, i + 1).join("/");
    let st;
    try {
      st = lstatSync(current);
    } catch {
      return { ok: false, reason: "missing", at };
    }
    if (st.isSymbolicLink()) return { ok: false, reason: "symlink", at };
    if (i < parts.length - 1) {
      if (!st.isDirectory()) return { ok: false, reason: "missing", at };
      continue;
    }
    if (want === "dir") return st.isDirectory() ? { ok: true, kind: "dir" } : { ok: false, reason: "not_dir", at };
    if (st.isFile()) return { ok: true, kind: "file" };
    if (st.isDirectory()) return { ok: false, reason: "not_file", at };
    return { ok: false, reason: "special", at };
  }
  return want === "dir" ? { ok: true, kind: "dir" } : { ok: false, reason: "not_file", at: rel };
}
