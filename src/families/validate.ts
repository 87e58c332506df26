import type { Context } from "../core/context.ts";
import { detectTarget, type Target } from "./detect.ts";
import type { ValidationReport } from "./types.ts";

/** Validates whatever the path names: a GJC bundle, a C2 bundle or a C2 catalog. */
export async function validatePath(ctx: Context, input: string, only?: Target["kind"]): Promise<ValidationReport> {
  const target = detectTarget(input, ctx.cwd);
  if (only && target.kind !== only) {
    const { usageError } = await import("../core/errors.ts");
    throw usageError(`${input} is a ${target.kind === "catalog" ? "catalog" : `${target.kind} bundle`}, not a ${only === "catalog" ? "catalog" : `${only} bundle`}.`, only === "catalog" ? "Use gjc plugin validate for bundles." : undefined, "wrong_target");
  }
  switch (target.kind) {
    case "gjc":
      return (await import("./gjc/validate.ts")).validateGjcBundle(ctx, target.dir);
    case "c2":
      return (await import("./c2/validate.ts")).validateC2Bundle(ctx, target.dir);
    case "catalog":
      return (await import("./c2/catalog.ts")).validateCatalog(ctx, target.file);
  }
}
