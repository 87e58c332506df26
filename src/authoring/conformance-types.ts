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
