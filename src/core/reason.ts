/**
 * Why a bundle is in the state a sets document reports (sync items, outdated rows, upgrade
 * outcomes), the way every gjc document says it (no prose-only fields): a stable code that
 * `gjc explain` knows, and a message for people.
 */
import type { Code } from "./codes.ts";
import { isGjcError } from "./errors.ts";

export interface SetReason {
  code: Code;
  message: string;
}

/** A failure as a reason: its gjc error code, or internal_error for anything else (a bug). */
export function reasonOf(error: unknown): SetReason {
  return isGjcError(error)
    ? { code: error.code, message: error.message }
    : { code: "internal_error", message: error instanceof Error ? error.message : String(error) };
}
