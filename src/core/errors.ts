import type { Code } from "./codes.ts";
import { ExitCode, type ExitCodeValue } from "./exit-codes.ts";

export interface GjcErrorInit {
  code: Code;
  message: string;
  hint?: string;
  details?: unknown;
  /** Exit class; defaults to 1 (operation failed). */
  exit?: ExitCodeValue;
}

/**
 * The single error type core code throws. Commands render it once at the top level:
 * the message says what went wrong, the hint says what to do next, the code is stable
 * and documented (`gjc explain <code>`).
 */
export class GjcError extends Error {
  readonly code: Code;
  readonly hint?: string;
  readonly details?: unknown;
  readonly exit: ExitCodeValue;

  constructor(init: GjcErrorInit) {
    super(init.message);
    this.name = "GjcError";
    this.code = init.code;
    this.hint = init.hint;
    this.details = init.details;
    this.exit = init.exit ?? ExitCode.failed;
  }

  toJSON(): { code: Code; message: string; hint?: string; details?: unknown } {
    const out: { code: Code; message: string; hint?: string; details?: unknown } = {
      code: this.code,
      message: this.message,
    };
    if (this.hint !== undefined) out.hint = this.hint;
    if (this.details !== undefined) out.details = this.details;
    return out;
  }
}

export function isGjcError(value: unknown): value is GjcError {
  return value instanceof GjcError;
}

/** A usage error (exit 2): bad flags, missing arguments, unknown verbs. */
export function usageError(message: string, hint?: string, code: Code = "usage"): GjcError {
  return new GjcError({ code, message, hint, exit: ExitCode.usage });
}
