import type { Diagnostic } from "../core/diagnostics.ts";

/** One rule `gjc plugin test` checked, with what happened. */
export interface ConformanceCheck {
  rule: string;
  ok: boolean;
  /** A check that could not run for a reason that is not a failure (e.g. no sample arguments). */
  skipped?: boolean;
  message: string;
  hint?: string;
  code?: string;
  latencyMs?: number;
}

export interface ConformanceReport {
  family: "c2" | "gjc";
  dir: string;
  name: string | null;
  version: string | null;
  ok: boolean;
  checks: ConformanceCheck[];
}

/** `--args` and the `gjc.test.json` file the author keeps next to the manifest (never inside it). */
export interface SampleArgs {
  [commandId: string]: { args: unknown; expect?: unknown };
}

export const TEST_FILE = "gjc.test.json";

/** The first rule of every conformance run: the validation verdict install would give. */
export function manifestCheck(diagnostics: readonly Diagnostic[], dir: string, what: string): ConformanceCheck {
  const errors = diagnostics.filter((d) => d.severity === "error");
  return errors.length === 0
    ? { rule: "manifest", ok: true, message: `${what} pass validation.` }
    : {
        rule: "manifest",
        ok: false,
        code: errors[0].code,
        message: `${errors.length} validation error(s); first: ${errors[0].message}`,
        hint: `Run "gjc plugin validate ${dir}" to see every problem.`,
      };
}
