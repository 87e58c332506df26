import type { Scope } from "../install/registry-types.ts";

/**
 * A finding of session start: something quarantined, dropped for size, or cut short. Every
 * one names the bundle and surface it is about, so nothing is ever left out silently.
 */
export interface SessionDiagnostic {
  code: string;
  severity: "error" | "warning";
  scope?: Scope;
  bundle?: string;
  surfaceId?: string;
  message: string;
  hint?: string;
}
