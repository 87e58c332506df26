/**
 * Keeps a noisy source from amplifying its output through us: of each kind of message (a
 * runtime's dropped stdout lines, its stderr lines, its log notifications) the first few are
 * shown, the rest are counted, and a summary with the count replaces them: one line every
 * `every` suppressed messages, and one when the source ends (drain()).
 */
export class RepeatLimiter {
  private readonly counts = new Map<string, { seen: number; unreported: number }>();

  constructor(
    readonly first = 10,
    readonly every = 1000,
  ) {}

  /**
   * One more message of `kind`: "show" it, or "count" it silently, or show a "summary" of
   * the `every` messages just counted instead.
   */
  note(kind: string): "show" | "count" | "summary" {
    const c = this.counts.get(kind) ?? { seen: 0, unreported: 0 };
    this.counts.set(kind, c);
    c.seen++;
    if (c.seen <= this.first) return "show";
    c.unreported++;
    if (c.unreported < this.every) return "count";
    c.unreported = 0;
    return "summary";
  }

  /** The kinds with messages counted since their last summary (and forgets those counts). */
  drain(): { kind: string; suppressed: number }[] {
    const out = [...this.counts].filter(([, c]) => c.unreported > 0).map(([kind, c]) => ({ kind, suppressed: c.unreported }));
    for (const c of this.counts.values()) c.unreported = 0;
    return out;
  }
}
