import type { Code } from "../core/codes.ts";
import type { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { HostedBundle } from "./bundle-directory.ts";
import { runtimeError } from "./runtime-errors.ts";

/**
 * Why none of a bundle's processes may start, or undefined: the one set of refusal codes
 * (quarantined, trust_outdated, untrusted, plugin_disabled; exit 3) for its runtime and its
 * language servers alike. `what` names the process in the message ("its runtime").
 */
export function processRefusal(bundle: HostedBundle, what: string): GjcError | undefined {
  const refused = (code: Code, message: string, hint: string, details?: unknown) =>
    runtimeError(code, message, hint, details, ExitCode.refused);
  if (bundle.quarantine) {
    return refused(
      "quarantined",
      `${bundle.name} is quarantined (${bundle.quarantine.reason}); ${what} does not start.`,
      `Run "gjc plugin verify ${bundle.name}" or reinstall it.`,
    );
  }
  if (bundle.trustOutdated) {
    return refused(
      "trust_outdated",
      `${bundle.name} was trusted, but an upgrade changed what it can run or reach (${bundle.trustOutdated.summary}); ${what} was not started.`,
      `Review the change with "gjc plugin audit ${bundle.name}", then run "gjc plugin trust ${bundle.name}" to trust it again.`,
      { plugin: bundle.id },
    );
  }
  if (!bundle.trusted) {
    return refused(
      "untrusted",
      `${bundle.name} ships a process and is not trusted, so ${what} was not started.`,
      `Review the bundle, then run "gjc plugin trust ${bundle.name}".`,
      { plugin: bundle.id },
    );
  }
  if (!bundle.enabled) {
    return refused(
      "plugin_disabled",
      `${bundle.name} is disabled.`,
      `Run "gjc plugin enable ${bundle.name} --user" to enable it.`,
      { plugin: bundle.id },
    );
  }
  return undefined;
}
