import { existsSync, realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { pathInside } from "../../bundle/path-safety.ts";
import { GjcError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";

/**
 * Resolves `runtime.command` (or a language server's command) to an executable path.
 * Bundle-relative commands (`./x` or anything with a `/`) resolve inside the installed bundle
 * and must stay there; bare names (`node`, `bun`) are looked up on the child's PATH.
 */
export function resolveRuntimeCommand(
  command: string,
  bundleDir: string,
  env: Record<string, string | undefined>,
): string {
  if (command.includes("/") || command.includes("\\")) {
    const candidate = resolve(bundleDir, command);
    const root = realpathSync(bundleDir);
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      throw new GjcError({
        code: "runtime_command_not_found",
        message: `The runtime command ${command} does not exist in the installed bundle.`,
        hint: "Reinstall the plugin; run `gjc plugin verify` to check the installed files.",
      });
    }
    const rel = pathInside(root, real);
    if (rel === undefined || rel === "" || !statSync(real).isFile()) {
      throw new GjcError({
        code: "runtime_command_not_found",
        message: `The runtime command ${command} is not a file inside the installed bundle.`,
        hint: "A bundle-relative runtime command must name a regular file inside the bundle.",
        exit: ExitCode.refused,
      });
    }
    return real;
  }
  const found = Bun.which(command, { PATH: env.PATH ?? "" });
  if (!found || !existsSync(found)) {
    throw new GjcError({
      code: "runtime_command_not_found",
      message: `The runtime command \`${command}\` was not found on PATH.`,
      hint: `Install ${command} or put it on PATH, then run the command again.`,
    });
  }
  return found;
}
