import { describe, expect, test } from "bun:test";
import { RepeatLimiter } from "../../../src/core/repeat-limiter.ts";

describe("RepeatLimiter", () => {
  test("shows the first few of each kind, summarises after `every` more, then at tenfold steps, drains the rest", () => {
    const limiter = new RepeatLimiter(2, 3);
    const verdicts = Array.from({ length: 9 }, () => limiter.note("a"));
    expect(verdicts).toEqual(["show", "show", "count", "count", { suppressed: 3 }, "count", "count", "count", "count"]);
    expect(limiter.note("b")).toBe("show");
    expect(limiter.drain()).toEqual([{ kind: "a", suppressed: 4 }]);
    expect(limiter.drain()).toEqual([]);
  });

  test("a flood of a million messages of two interleaved kinds gives a handful of summaries, each step tenfold (capped at 1000x)", () => {
    const limiter = new RepeatLimiter(10, 1000);
    const summaries: [string, number][] = [];
    for (let i = 0; i < 1_000_000; i++) {
      for (const kind of ["stdout", "stderr"]) {
        const v = limiter.note(kind);
        if (typeof v === "object") summaries.push([kind, v.suppressed]);
      }
    }
    expect(summaries).toEqual([
      ["stdout", 1000],
      ["stderr", 1000],
      ["stdout", 10_000],
      ["stderr", 10_000],
      ["stdout", 100_000],
      ["stderr", 100_000],
    ]);
    const capped = new RepeatLimiter(0, 1);
    const steps: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const v = capped.note("k");
      if (typeof v === "object") steps.push(v.suppressed);
    }
    expect(steps).toEqual([1, 10, 100, 1000, 1000]);
  });
});
