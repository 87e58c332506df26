import { describe, expect, test } from "bun:test";
import { MAX_JSON_DEPTH, parseBoundedJson } from "../../../src/bundle/json.ts";

describe("parseBoundedJson", () => {
  test("the same values as JSON.parse for ordinary documents, -0 and integers past 2^53 included", () => {
    for (const text of ['{"a":[1,2,{"b":"c"}]}', "-0", "9007199254740993", '"e400 in a string"', '{"x":"[[[[[[["}', "1e308", "[]"]) {
      expect(parseBoundedJson(text)).toEqual(JSON.parse(text));
    }
  });

  test(`nesting up to ${MAX_JSON_DEPTH} passes, one more is a SyntaxError (brackets inside strings do not count)`, () => {
    const at = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    expect(() => parseBoundedJson(at(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseBoundedJson(at(MAX_JSON_DEPTH + 1))).toThrow(SyntaxError);
    expect(() => parseBoundedJson(`["${"[".repeat(1000)}\\"${"{".repeat(1000)}"]`)).not.toThrow();
    expect(() => parseBoundedJson(at(1_000_000))).toThrow(/nested deeper/);
  });

  test("a number a double cannot hold is a SyntaxError; invalid JSON still is", () => {
    for (const text of ["1e400", '{"a":[-1E+999]}', `[${"9".repeat(400)}]`]) expect(() => parseBoundedJson(text)).toThrow(/too large/);
    expect(() => parseBoundedJson("{")).toThrow(SyntaxError);
  });
});
