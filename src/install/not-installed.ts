import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "./registry-types.ts";

export function notInstalled(name: string, scope?: Scope): GjcError {
  return new GjcError({
    code: "not_installed",
    message: scope
      ? `No GJC bundle named ${JSON.stringify(name)} is installed in the ${scope} scope.`
      : `No bundle named ${JSON.stringify(name)} is installed.`,
    hint: 'Run "gjc plugin list" to see what is installed, and in which scope.',
    exit: ExitCode.failed,
  });
}
