import { ExitCode, type ExitCodeValue } from "../core/exit-codes.ts";
import { GjcError } from "../core/errors.ts";

/** The codes this layer throws and the exit class each one carries (see types.ts). */
const EXIT: Record<SourceErrorCode, ExitCodeValue> = {
  invalid_source: ExitCode.usage,
  security_policy: ExitCode.refused,
  hash_mismatch: ExitCode.refused,
  source_unreachable: ExitCode.unreachable,
  source_too_large: ExitCode.failed,
  invalid_archive: ExitCode.failed,
  missing_file: ExitCode.failed,
  nested_manifest: ExitCode.failed,
};

export type SourceErrorCode =
  | "invalid_source"
  | "security_policy"
  | "hash_mismatch"
  | "source_unreachable"
  | "source_too_large"
  | "invalid_archive"
  | "missing_file"
  | "nested_manifest";

export function sourceError(code: SourceErrorCode, message: string, hint?: string, details?: unknown): GjcError {
  return new GjcError({ code, message, hint, details, exit: EXIT[code] });
}
