import type { Context } from "../core/context.ts";
import { scopeFlag, scopeRoot } from "../families/gjc/layout.ts";
import { notInstalled } from "./not-installed.ts";
import { readRegistry } from "./registry.ts";
import type { CopiedFile, Scope } from "./registry-types.ts";
import { sourceDisplay } from "./source-display.ts";
import { summarize, surfaceStates, type BundleSummary, type SurfaceState } from "./summary.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";

export interface GjcInspection extends BundleSummary {
  surfaces: SurfaceState[];
  files: CopiedFile[];
  pluginRoot: string;
  sourceRecord: { kind: string; display: string; ref?: string; sha?: string; sha256?: string; subpath?: string };
}

/** One bundle in one scope, or the only scope that has it when none is given. */
export function inspectGjc(ctx: Context, name: string, scope?: Scope): GjcInspection {
  const scopes: Scope[] = scope ? [scope] : ["user", "project"];
  const hits = scopes.flatMap((s) => readRegistry(scopeRoot(ctx, s), s, ctx).plugins.filter((p) => p.name === name));
  if (hits.length === 0) throw notInstalled(name, scope);
  if (hits.length > 1) {
    throw new GjcError({
      code: "ambiguous_scope",
      message: `${name} is installed in both the user and the project scope.`,
      hint: `Say which one: gjc plugin inspect ${name} ${scopeFlag("user")} (or ${scopeFlag("project")}).`,
      exit: ExitCode.usage,
    });
  }
  const e = hits[0];
  return {
    ...summarize(e),
    surfaces: surfaceStates(e),
    files: e.copiedFiles,
    pluginRoot: e.pluginRoot,
    sourceRecord: {
      kind: e.source.kind,
      display: sourceDisplay(e.source),
      ...(e.source.ref ? { ref: e.source.ref } : {}),
      ...(e.source.sha ? { sha: e.source.sha } : {}),
      ...(e.source.sha256 ? { sha256: e.source.sha256 } : {}),
      ...(e.source.subpath ? { subpath: e.source.subpath } : {}),
    },
  };
}
