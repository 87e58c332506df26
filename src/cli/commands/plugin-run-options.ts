import { MAX_JSON_DEPTH, nestedDeeperThan } from "../../bundle/json.ts";
import { GjcError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";
export { jsonOption, timeoutOption } from "../options.ts";

export const projectArg = {
  project: { type: "string", description: "Run in this project's realm (project-capable runtimes)", valueHint: "dir" },
} as const;

/**
 * A runtime's answer as text. An answer nested deeper than any real result (up to 1 MiB a
 * frame allows ~500,000 levels) would overflow the stack when printed, in human and --json
 * output alike: it is refused as the runtime's protocol error instead of ending in exit 70.
 */
export function pretty(value: unknown): string {
  if (nestedDeeperThan(value)) {
    throw new GjcError({
      code: "runtime_protocol_error",
      message: `The answer is nested deeper than ${MAX_JSON_DEPTH} levels, so it cannot be printed.`,
      hint: "Fix the plugin: its answer must be plain JSON data of a reasonable shape.",
      exit: ExitCode.failed,
    });
  }
  return JSON.stringify(value, null, 2) ?? "null";
}
