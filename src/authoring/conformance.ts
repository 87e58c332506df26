import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "../core/context.ts";
import { usageError } from "../core/errors.ts";
import { detectTarget } from "../families/detect.ts";
import { TEST_FILE, type ConformanceReport, type SampleArgs } from "./conformance-types.ts";

/** `gjc plugin test <dir>`: conformance of a source folder, nothing installed. */
export async function testBundle(
  ctx: Context,
  input: string,
  opts: { args?: string; timeoutMs?: number },
): Promise<ConformanceReport> {
  const target = detectTarget(input, ctx.cwd);
  if (target.kind === "catalog")
    throw usageError(`${input} is a catalog; plugin test takes a bundle directory.`, undefined, "wrong_target");
  if (target.kind === "gjc") {
    if (opts.args !== undefined)
      throw usageError(
        "--args applies to C2 runtime commands only.",
        "GJC bundles have no commands to invoke; drop --args.",
        "invalid_option_value",
      );
    return (await import("./conformance-gjc.ts")).testGjcBundle(ctx, target.dir, opts);
  }
  const samples = opts.args !== undefined ? parseArgsOption(opts.args) : readTestFile(target.dir);
  return (await import("./conformance-c2.ts")).testC2Bundle(ctx, target.dir, samples, opts);
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
