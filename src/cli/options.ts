import { parseBoundedJson } from "../bundle/json.ts";
import { usageError } from "../core/errors.ts";
import { ENV_NAME, MAX_PASS_ENV } from "../process/env.ts";

/**
 * Parses a JSON option value (`--args`, `--input`, `--context`) with a quoting hint; bounded
 * like bundle JSON (src/bundle/json.ts), since it is sent on as a protocol frame.
 */
export function jsonOption(flag: string, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return parseBoundedJson(value);
  } catch (error) {
    throw usageError(
      `--${flag} is not valid JSON: ${(error as Error).message}.`,
      `Quote it for the shell, e.g. --${flag} '{"key":"value"}'.`,
      "invalid_option_value",
    );
  }
}

/** `--timeout <ms>`: a positive whole number of milliseconds, or absent. */
export function timeoutOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw usageError(
      `--timeout must be a positive number of milliseconds, not "${value}".`,
      "For example --timeout 30000.",
      "invalid_option_value",
    );
  return n;
}

/** `--pass-env NAME[,NAME…]`: host variable names, or absent. Whether a name may pass is core's call. */
export function passEnvOption(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = [
    ...new Set(
      value
        .split(",")
        .map((n) => n.trim())
        .filter((n) => n !== ""),
    ),
  ];
  const bad = names.find((n) => !ENV_NAME.test(n));
  if (bad !== undefined || names.length === 0 || names.length > MAX_PASS_ENV) {
    throw usageError(
      bad !== undefined
        ? `--pass-env names "${bad}", which is not an environment variable name.`
        : `--pass-env takes 1 to ${MAX_PASS_ENV} variable names.`,
      "For example --pass-env DOCKER_HOST or --pass-env DOCKER_HOST,KUBECONFIG.",
      "invalid_option_value",
    );
  }
  return names;
}
