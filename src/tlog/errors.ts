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

/** A tree head as shown to people and in `details`: origin, size and base64 root. */
export interface TreeHeadSummary {
  origin: string;
  size: number;
  root: string;
}

const show = (t: TreeHeadSummary) => `${t.size} releases, root ${t.root}`;

/**
 * A log that is not an extension of what was seen before (a release removed, changed,
 * reordered or published twice, a checkpoint that forks from the remembered one). Both tree
 * heads are shown: the one believed and the one presented.
 */
export function logInconsistent(
  problem: string,
  believed: TreeHeadSummary,
  presented: TreeHeadSummary,
  details?: Record<string, unknown>,
): GjcError {
  return new GjcError({
    code: "log_inconsistent",
    message: `The release log ${presented.origin} was rewritten: ${problem}. Believed: ${show(believed)}; presented: ${show(presented)}. Nothing was written.`,
    hint: "An append-only log never loses, changes or reorders a release. Tell the log's publisher (someone may have published in their name); do not install from it until they explain the fork.",
    details: { problem, believed, presented, ...details },
    exit: ExitCode.refused,
  });
}
