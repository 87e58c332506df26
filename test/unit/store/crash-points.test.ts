import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CRASH_POINTS, crashPointsOf, type CrashOperation, type CrashPoint } from "../../../src/store/crash-points.ts";

const repo = new URL("../../..", import.meta.url).pathname;
const read = (dir: string, pattern: RegExp) =>
  readdirSync(join(repo, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => pattern.test(f))
    .map((f) => readFileSync(join(repo, dir, f), "utf8"));
const crashTests = read("test/e2e", /\.test\.ts$/).filter((t) => t.includes("GJC_TEST_CRASH_AT"));
const sources = read("src", /\.ts$/);

/** Points no crash test reaches yet, each a test to write (none today). */
const NOT_YET_KILLED: CrashPoint[] = [];

describe("the one table of crash points", () => {
  test("every point of the table is passed in src/ (a crashPoint call names it, whole or by its set step)", () => {
    const named = (p: CrashPoint) => {
      const [prefix, stage] = p.split(":");
      return sources.some(
        (s) =>
          s.includes(`crashPoint(ctx, "${p}")`) ||
          ((prefix === "sync" || prefix === "rollback") && s.includes(`crashPoint(ctx, \`\${step}:${stage}\`)`)),
      );
    };
    expect((Object.keys(CRASH_POINTS) as CrashPoint[]).filter((p) => !named(p))).toEqual([]);
  });

  test("every point is killed by a crash test: by name, or by a test that iterates its operation", () => {
    const iterated = (op: CrashOperation) => crashTests.some((t) => t.includes(`crashPointsOf("${op}")`));
    const killed = (p: CrashPoint) =>
      iterated(CRASH_POINTS[p].operation) || crashTests.some((t) => t.includes(`"${p}"`));
    expect(
      (Object.keys(CRASH_POINTS) as CrashPoint[]).filter((p) => !killed(p) && !NOT_YET_KILLED.includes(p)),
    ).toEqual([]);
    // A point that a test reaches leaves the list of gaps.
    expect(NOT_YET_KILLED.filter((p) => killed(p))).toEqual([]);
  });

  test("an operation's points come in the order the table lists them", () => {
    expect(crashPointsOf("c2-install")).toEqual(["c2install:staged", "c2install:backed-up", "c2install:committed"]);
    expect(crashPointsOf("set-change").slice(0, 2)).toEqual(["sync:planned", "sync:journaled"]);
  });
});
