import type { Style } from "../../core/style.ts";

/** The line that stands for entries a long human list leaves out; --json always has them all. */
export function moreLine(hidden: number, s: Style, what = ""): string {
  return s.dim(`… and ${hidden} more${what} (--json lists every one)`);
}
