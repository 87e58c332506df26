/**
 * The check of a TypeBox schema as source text, for the generated schema modules
 * (schemas.generated.ts, the disk-schemas.generated.ts files): TypeBox's own compiler
 * (typebox/compile) writes the function, so the generated check is TypeBox's verdict and there
 * is no second reading of the keywords to keep in step. It is compiled at build time, not at
 * start-up: the binary then runs plain code for a valid document and loads TypeBox only to
 * explain a failing one. Dev-time only (imports the compiler).
 */
import { Compile } from "typebox/compile";

/**
 * An expression of type `(value: unknown) => boolean` that refers only to `Guard` (typebox/guard,
 * TypeBox's small library of value tests the compiled code calls, e.g. code point counts) and
 * to the regular expressions it carries. A schema whose compiled form needs more of TypeBox
 * (unevaluated properties, a check context, hashing) is refused here rather than half-generated.
 */
export function compiledCheckSource(schema: unknown): string {
  const validator = Compile(schema as Parameters<typeof Compile>[0]) as unknown as {
    Code(): string;
    buildResult: { External(): { identifier: string; variables: unknown[] }; UseUnevaluated(): boolean };
  };
  const code = validator.Code();
  const external = validator.buildResult.External();
  // A reference (not a property or key of that name) to what the evaluated code would be handed.
  const unsupported = code.match(/(?<![.\w"$])(CheckContext|Hashing|context)\b/);
  if (validator.buildResult.UseUnevaluated() || unsupported || external.identifier !== "External") {
    throw new Error(
      `the compiled check needs ${unsupported?.[1] ?? "more than Guard and External"}; extend compiledCheckSource before generating this schema`,
    );
  }
  const regexes = external.variables.map((v) => {
    if (!(v instanceof RegExp)) throw new Error(`the compiled check refers to a ${typeof v} it cannot write out`);
    return v.toString();
  });
  return `((Guard, External) => {\n    ${code}\n  })(Guard, [${regexes.join(", ")}])`;
}
