/**
 * One documentation page per code: `docs/errors/<code>.md`, starting with `# <code>` and a
 * one-line summary (the first line of text after the heading), which `gjc explain --list` shows.
 */
export interface PageSummary {
  code: string;
  summary: string;
}

export function pageSummary(code: string, text: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith("# "));
  for (const line of lines.slice(start + 1)) if (line.trim() !== "") return line.trim();
  return "";
}

/** The heading a page must open with; the page tests hold every page to it. */
export function pageHeading(text: string): string | undefined {
  const first = text.split("\n", 1)[0];
  return first.startsWith("# ") ? first.slice(2).trim() : undefined;
}
