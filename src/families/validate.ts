import type { Context } from "../core/context.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CATALOG_FILE, detectTarget, type Target } from "./detect.ts";
import type { ValidationReport } from "./types.ts";

/** Validates whatever the path names: a GJC bundle, a C2 bundle or a C2 catalog. */
export async function validatePath(ctx: Context, input: string, only?: Target["kind"]): Promise<ValidationReport> {
  let target = detectTarget(input, ctx.cwd);
  // A bundle directory may also hold its catalog (a `local` source "./"): asked for the
  // catalog, validate that file instead of refusing the directory as a bundle.
  if (only === "catalog" && target.kind !== "catalog") {
    const file = join(target.dir, CATALOG_FILE);
    if (existsSync(file)) target = { kind: "catalog", file };
  }
  if (only && target.kind !== only) {
    const { usageError } = await import("../core/errors.ts");
    throw usageError(
      `${input} is a ${target.kind === "catalog" ? "catalog" : `${target.kind} bundle`}, not a ${only === "catalog" ? "catalog" : `${only} bundle`}.`,
      only === "catalog" ? "Use gjc plugin validate for bundles." : undefined,
      "wrong_target",
    );
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
