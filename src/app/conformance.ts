import type { Context } from "../core/context.ts";
import { usageError } from "../core/errors.ts";
import { detectTarget } from "../families/detect.ts";
import type { ConformanceReport } from "../authoring/conformance-types.ts";
import { sampleArgsOf } from "../authoring/sample-args.ts";

/**
 * `gjc plugin test <dir>`: conformance of a source folder, nothing installed. A use case of its
 * own because the checks start what a session and a host start (runtime checks, MCP probes, a
 * C2 runtime), all above authoring/.
 */
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
  const samples = sampleArgsOf(target.dir, opts.args);
  return (await import("./conformance-c2.ts")).testC2Bundle(ctx, target.dir, samples, opts);
}
