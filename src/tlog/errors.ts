import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";

/** A log file that is not in its format (a checkpoint, note, key or entries file). */
export function invalidLog(what: string, problem: string, details?: Record<string, unknown>): GjcError {
  return new GjcError({
    code: "invalid_log",
    message: `The release log's ${what} is not valid: ${problem}.`,
    hint: "Release log files are written by gjc plugin log init and append; restore the file from the log's history, or ask its publisher.",
    details: { file: what, problem, ...details },
    exit: ExitCode.failed,
  });
}

/** A note or checkpoint whose signature by the log's key is missing or does not verify. */
export function logSignatureInvalid(what: string, problem: string, details?: Record<string, unknown>): GjcError {
  return new GjcError({
    code: "log_signature_invalid",
    message: `The release log's ${what} is not signed by the log's key: ${problem}. Nothing was written.`,
    hint: "A checkpoint is only believed when the log's note key signed exactly its text. Ask the log's publisher; do not install from it until it verifies.",
    details: { file: what, problem, ...details },
    exit: ExitCode.refused,
  });
}
