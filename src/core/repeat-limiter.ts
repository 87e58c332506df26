/**
 * Keeps a noisy source from amplifying its output through us: of each kind of message (a
 * runtime's dropped stdout lines, its stderr lines, its log notifications) the first few are
 * shown, the rest are counted, and a summary with the count replaces them, one when the
 * source ends (drain()) and one along the way each time the count reaches the next step.
 *
 * The steps grow tenfold (`every`, then 10×, 100×…, up to 1000× `every`): a flood of millions
 * of lines is a handful of summaries, not one line every thousand, which two interleaved
 * floods (stdout and stderr) turned into thousands of lines in seconds, since no two
 * consecutive summaries were alike for the logger to fold.
 */
export class RepeatLimiter {
  private readonly counts = new Map<string, { seen: number; unreported: number; step: number }>();

  constructor(
    readonly first = 10,
    readonly every = 1000,
  ) {}

  /**
   * One more message of `kind`: "show" it, or "count" it silently, or show a summary of the
   * `suppressed` messages counted since the last one instead.
   */
  note(kind: string): "show" | "count" | { suppressed: number } {
    const c = this.counts.get(kind) ?? { seen: 0, unreported: 0, step: this.every };
    this.counts.set(kind, c);
    c.seen++;
    if (c.seen <= this.first) return "show";
    c.unreported++;
    if (c.unreported < c.step) return "count";
    const suppressed = c.unreported;
    c.unreported = 0;
    c.step = Math.min(c.step * 10, this.every * 1000);
    return { suppressed };
  }

  /** The kinds with messages counted since their last summary (and forgets those counts). */
  drain(): { kind: string; suppressed: number }[] {
    const out = [...this.counts]
      .filter(([, c]) => c.unreported > 0)
      .map(([kind, c]) => ({ kind, suppressed: c.unreported }));
    for (const c of this.counts.values()) c.unreported = 0;
    return out;
  }
}
