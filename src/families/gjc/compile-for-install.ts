import type { Diagnostic } from "../../core/diagnostics.ts";
import { GjcError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { invalidBundleError } from "../refusal.ts";

/** What install needs from the GJC compiler: identity, surfaces, and the exact validated bytes. */
export interface CompiledSurface {
  id: string;
  kind: string;
  enabledByDefault: boolean;
  [field: string]: unknown;
}

export interface CompiledFile {
  path: string;
  sha256: string;
  bytes: number;
  mode: number;
}

export interface CompiledBundle {
  name: string;
  version: string;
  manifestSha256: string;
  surfaces: CompiledSurface[];
  /** Manifest first. */
  files: CompiledFile[];
  /** The validated bytes by path; empty when compiled with keepContents: false (the audit copies nothing). */
  contents: Map<string, Uint8Array>;
}

/**
 * Compiles a fetched bundle root for install: reads only declared files, imports no code, and
 * keeps the bytes it hashed so the copy is exactly what was validated. Any error diagnostic
 * refuses the whole bundle, with every diagnostic in `details`.
 */
export async function compileForInstall(
  dir: string,
  opts: { keepContents?: boolean } = {},
): Promise<{ bundle: CompiledBundle; warnings: Diagnostic[] }> {
  const { compileGjcBundle } = await import("./compile.ts");
  // keepContents: false is the audit's plan (nothing is copied, so no bytes are kept).
  const keepContents = opts.keepContents ?? true;
  const result = await compileGjcBundle(dir, { keepContents });
  const diagnostics: Diagnostic[] = result.diagnostics ?? [];
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !result.bundle) throw invalidBundleError(dir, diagnostics);
  const bundle = result.bundle as CompiledBundle;
  if (keepContents && !bundle.contents)
    throw new GjcError({
      code: "internal_error",
      message: "The compiler kept no file contents for install.",
      exit: ExitCode.internal,
    });
  bundle.contents ??= new Map();
  return { bundle, warnings: diagnostics.filter((d) => d.severity === "warning") };
}
