import type { Diagnostic } from "../core/diagnostics.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";

/** Codes that mean "refused by security policy" rather than "invalid" (exit 3 instead of 1). */
const POLICY_CODES = new Set(["security_policy", "unsafe_path", "special_file", "forbidden_surface"]);

/**
 * The one refusal of a bundle whose plan has errors, for both families and every verb that plans
 * one (install, upgrade, sync, audit, pack): the first error's code, so the same mistake gets the
 * same code as `validate` reports, with every diagnostic in `details`.
 */
export function invalidBundleError(
  dir: string,
  diagnostics: Diagnostic[],
  action: "installed" | "packed" = "installed",
): GjcError {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : "";
  return new GjcError({
    code: first?.code ?? "invalid_manifest",
    message: `The bundle at ${dir} cannot be ${action}: ${first ? `${first.path}: ${first.message.replace(/\.$/, "")}` : "it is invalid"}${more}.`,
    hint: first?.hint ?? `Run "gjc plugin validate ${dir}" to see every problem, fix them, and try again.`,
    details: { diagnostics },
    exit: errors.some((d) => POLICY_CODES.has(d.code)) ? ExitCode.refused : ExitCode.failed,
  });
}
