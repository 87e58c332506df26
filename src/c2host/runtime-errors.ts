import type { Code } from "../core/codes.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode, type ExitCodeValue } from "../core/exit-codes.ts";

/** The hint every remembered activation failure carries: nothing restarts on its own. */
export const RELOAD_HINT =
  "Reload the plugin (or disable and re-enable it) to retry; `gjc plugin inspect <name>` shows its runtime.";

export function runtimeError(
  code: Code,
  message: string,
  hint?: string,
  details?: unknown,
  exit: ExitCodeValue = ExitCode.failed,
): GjcError {
  return new GjcError({ code, message, hint, details, exit });
}

export function unloadedError(plugin: string): GjcError {
  return runtimeError(
    "runtime_unloaded",
    `The runtime of ${plugin} was unloaded before the call finished.`,
    "Run the command again.",
  );
}
