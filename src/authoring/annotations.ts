import { readFileSync } from "node:fs";
import { isAbsolute, join, sep } from "node:path";
import { pathInside } from "../bundle/path-safety.ts";
import type { Context } from "../core/context.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { positionOfPointer, type TextPosition } from "../core/json-position.ts";
import type { ValidationReport } from "../families/types.ts";
import { validatePath } from "../families/validate.ts";

/** A diagnostic placed in a file: what `--format github` turns into an annotation. */
export interface LocatedDiagnostic extends TextPosition {
  diagnostic: Diagnostic;
  /** The file, relative to the current directory when it is inside it (as CI checkouts are). */
  file: string;
}

/** validate, with every diagnostic placed in its file (for `--format github`). */
export async function validateLocated(
  ctx: Context,
  path: string,
): Promise<{ report: ValidationReport; located: LocatedDiagnostic[] }> {
  const report = await validatePath(ctx, path);
  return { report, located: locateDiagnostics(report, ctx.cwd) };
}

/**
 * Places every diagnostic of a validation at a file, line and column. A diagnostic path is
 * `<file>#<JSON pointer>` (the pointer is looked up in the file's text) or a plain
 * bundle-relative file (line 1). Paths are relative to the bundle directory, or to the catalog's
 * folder for a catalog (whose local entries report under their own folder).
 */
export function locateDiagnostics(report: ValidationReport, cwd: string): LocatedDiagnostic[] {
  const base = report.family === "catalog" ? join(report.target, "..") : report.target;
  const texts = new Map<string, string | undefined>();
  const textOf = (abs: string) => {
    if (!texts.has(abs)) {
      try {
        texts.set(abs, readFileSync(abs, "utf8"));
      } catch {
        texts.set(abs, undefined);
      }
    }
    return texts.get(abs);
  };
  return report.diagnostics.map((diagnostic) => {
    const hash = diagnostic.path.indexOf("#");
    const rel = hash === -1 ? diagnostic.path : diagnostic.path.slice(0, hash);
    const abs = rel === "" ? base : isAbsolute(rel) ? rel : join(base, rel);
    const text = hash === -1 ? undefined : textOf(abs);
    const position =
      text === undefined ? { line: 1, column: 1 } : positionOfPointer(text, diagnostic.path.slice(hash + 1));
    return { diagnostic, file: displayPath(abs, cwd), ...position };
  });
}

function displayPath(abs: string, cwd: string): string {
  const rel = pathInside(cwd, abs);
  return rel === undefined || rel === "" ? abs : rel.split(sep).join("/");
}
