import { usageError } from "../core/errors.ts";

/** Parses a JSON option value (`--args`, `--input`, `--context`) with a quoting hint. */
export function jsonOption(flag: string, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw usageError(`--${flag} is not valid JSON: ${(error as Error).message}.`, `Quote it for the shell, e.g. --${flag} '{"key":"value"}'.`, "invalid_option_value");
  }
}

/** `--timeout <ms>`: a positive whole number of milliseconds, or absent. */
export function timeoutOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw usageError(`--timeout must be a positive number of milliseconds, not "${value}".`, "For example --timeout 30000.", "invalid_option_value");
  return n;
}
