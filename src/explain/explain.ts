import { usageError } from "../core/errors.ts";
import { closest } from "../core/suggest.ts";
import { pageSummary, type PageSummary } from "./page.ts";
import { PAGES } from "./pages.generated.ts";

export interface ExplainedCode extends PageSummary {
  /** The page as Markdown. */
  text: string;
}

/** The page of one code; an unknown code is a usage error with the nearest known code. */
export function explainCode(code: string): ExplainedCode {
  const text = Object.hasOwn(PAGES, code) ? PAGES[code] : undefined;
  if (text === undefined) {
    const near = closest(code, Object.keys(PAGES));
    throw usageError(
      `"${code}" is not a gjc error or diagnostic code.${near ? ` Did you mean "${near}"?` : ""}`,
      near
        ? `Run "gjc explain ${near}", or "gjc explain --list" for every code.`
        : `Run "gjc explain --list" for every code.`,
      "unknown_code",
    );
  }
  return { code, summary: pageSummary(code, text), text };
}

/** Every documented code with its one-line summary, sorted by code. */
export function listCodes(): PageSummary[] {
  return Object.keys(PAGES)
    .sort()
    .map((code) => ({ code, summary: pageSummary(code, PAGES[code]) }));
}
