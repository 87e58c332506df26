import { describe, expect, test } from "bun:test";
import { RepeatLimiter } from "../../../src/core/repeat-limiter.ts";

describe("RepeatLimiter", () => {
  test("shows the first few of each kind, summarises every `every` more, drains the rest", () => {
    const limiter = new RepeatLimiter(2, 3);
    const verdicts = Array.from({ length: 9 }, () => limiter.note("a"));
    expect(verdicts).toEqual(["show", "show", "count", "count", "summary", "count", "count", "summary", "count"]);
    expect(limiter.note("b")).toBe("show");
    expect(limiter.drain()).toEqual([{ kind: "a", suppressed: 1 }]);
    expect(limiter.drain()).toEqual([]);
  });
});
