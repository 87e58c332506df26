/**
 * Diagnostics are data: every rule that fires produces one of these, and the same
 * objects feed `validate`, install refusals and `--json` output.
 */
import type { Code } from "./codes.ts";

export type Severity = "error" | "warning";

export interface Diagnostic {
  code: Code;
  severity: Severity;
  /** JSON pointer into the manifest (`plugin.json#/extensions/...`) or a bundle-relative file. */
  path: string;
  message: string;
  hint?: string;
}

/** Collects diagnostics while a validator walks a document, so one run reports every error. */
export class DiagnosticSink {
  readonly items: Diagnostic[] = [];

  error(code: Code, path: string, message: string, hint?: string): void {
    this.items.push(
      hint === undefined
        ? { code, severity: "error", path, message }
        : { code, severity: "error", path, message, hint },
    );
  }

  warning(code: Code, path: string, message: string, hint?: string): void {
    this.items.push(
      hint === undefined
        ? { code, severity: "warning", path, message }
        : { code, severity: "warning", path, message, hint },
    );
  }

  add(d: Diagnostic): void {
    this.items.push(d);
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }

  errors(): Diagnostic[] {
    return this.items.filter((d) => d.severity === "error");
  }
}

/** Appends one JSON-pointer segment, escaping `~` and `/` per RFC 6901. */
export function pointer(base: string, segment: string | number): string {
  const s = String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
  return `${base}/${s}`;
}
