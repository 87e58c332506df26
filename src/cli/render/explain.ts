/** Human text of `gjc explain --list` (a single page is already text: explainCode's `text`). */
import type { Style } from "../../core/style.ts";
import type { PageSummary } from "../../explain/page.ts";

export function describeCodeList(codes: PageSummary[], s: Style): string {
  const width = Math.max(...codes.map((c) => c.code.length));
  return codes.map((c) => `${s.bold(c.code.padEnd(width))}  ${c.summary}`).join("\n");
}
