import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { usageError } from "../core/errors.ts";
import { TEST_FILE, type SampleArgs } from "./conformance-types.ts";

/**
 * The sample arguments `gjc plugin test` calls a C2 bundle's commands with: `--args` when
 * given, else the bundle's gjc.test.json.
 */
export function sampleArgsOf(dir: string, args: string | undefined): SampleArgs {
  return args !== undefined ? parseArgsOption(args) : readTestFile(dir);
}

/** `--args` is `{"<command-id>": <args>, …}`. */
function parseArgsOption(raw: string): SampleArgs {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw usageError(
      `--args is not valid JSON: ${(e as Error).message}`,
      `Write it as --args '{"ns.command": {"key": "value"}}'.`,
      "invalid_json",
    );
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw usageError(
      "--args must be a JSON object keyed by command id.",
      `Write it as --args '{"ns.command": {"key": "value"}}'.`,
      "invalid_option_value",
    );
  }
  return Object.fromEntries(Object.entries(value).map(([id, args]) => [id, { args }]));
}

/** gjc.test.json: `{"commands": {"<id>": {"args": …, "expect"?: …}}}`; absent means no samples. */
function readTestFile(dir: string): SampleArgs {
  const file = join(dir, TEST_FILE);
  try {
    if (!lstatSync(file).isFile())
      throw usageError(`${TEST_FILE} must be a regular file.`, undefined, "invalid_test_file");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw e;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw usageError(
      `${TEST_FILE} is not valid JSON: ${(e as Error).message}`,
      "Fix the file or pass --args instead.",
      "invalid_test_file",
    );
  }
  const commands = (doc as { commands?: unknown })?.commands;
  if (!commands || typeof commands !== "object" || Array.isArray(commands)) {
    throw usageError(
      `${TEST_FILE} must be {"commands": {"<command-id>": {"args": …, "expect": …}}}.`,
      undefined,
      "invalid_test_file",
    );
  }
  const out: SampleArgs = {};
  for (const [id, entry] of Object.entries(commands)) {
    if (!entry || typeof entry !== "object" || !("args" in entry))
      throw usageError(`${TEST_FILE}: commands.${id} needs an "args" value.`, undefined, "invalid_test_file");
    out[id] = entry as SampleArgs[string];
  }
  return out;
}
