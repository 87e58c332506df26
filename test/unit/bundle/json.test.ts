import { describe, expect, test } from "bun:test";
import { DuplicateKeyError, MAX_JSON_DEPTH, jsonErrorPath, parseBoundedJson } from "../../../src/bundle/json.ts";

describe("parseBoundedJson", () => {
  test("the same values as JSON.parse for ordinary documents, -0 and integers past 2^53 included", () => {
    for (const text of [
      '{"a":[1,2,{"b":"c"}]}',
      "-0",
      "9007199254740993",
      '"e400 in a string"',
      '{"x":"[[[[[[["}',
      "1e308",
      "[]",
    ]) {
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
    for (const text of ["1e400", '{"a":[-1E+999]}', `[${"9".repeat(400)}]`])
      expect(() => parseBoundedJson(text)).toThrow(/too large/);
    expect(() => parseBoundedJson("{")).toThrow(SyntaxError);
  });

  test("a key repeated in one object is a DuplicateKeyError with its pointer, line and column, however it is spelled or hidden", () => {
    const cases: [string, string, number, number][] = [
      ['{"name":"a","name":"b"}', "/name", 1, 13],
      ['{"a":{"b":1,"c":[{"x":1,"y":2,\n "x":3}]}}', "/a/c/0/x", 2, 2],
      ['{"\\u006eame":1,"name":2}', "/name", 1, 16], // an escape spells the same key
      ['{"__proto__":1,"__proto__":2}', "/__proto__", 1, 16],
      ['{"a\\"b":1,"a\\"b":2}', '/a"b', 1, 11],
      // a number far longer than any token before the twin: the walk that places it steps over it whole
      [`{"n":${"1".repeat(300)}.5,"k":1,"k":2}`, "/k", 1, 315],
      ['{"a/b":{"c":1},"a/b":2}', "/a~1b", 1, 16],
    ];
    for (const [text, pointer, line, column] of cases) {
      let error: unknown;
      try {
        parseBoundedJson(text);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect(error).toBeInstanceOf(SyntaxError);
      expect({
        pointer: (error as DuplicateKeyError).pointer,
        line: (error as DuplicateKeyError).line,
        column: (error as DuplicateKeyError).column,
      }).toEqual({ pointer, line, column });
      expect(jsonErrorPath("plugin.json", error)).toBe(`plugin.json#${pointer}`);
    }
  });

  test("the same key in sibling objects, a key-like string value, and keys that encode alike in a pointer are not duplicates", () => {
    for (const text of [
      '[{"k":1},{"k":1}]',
      '{"a":"\\"b\\":1","b":1}',
      '{"a/b":1,"a~1b":2}',
      '{"a":{"k":1},"b":{"k":1}}',
      '{"":1," ":2}',
    ]) {
      expect(parseBoundedJson(text)).toEqual(JSON.parse(text));
    }
  });

  test("the text scan steps over strings whole: escaped quotes, backslash runs, colons and brackets inside them count for nothing", () => {
    for (const text of [
      '{"a":"x\\":[[{"}',
      '{"a":"\\\\","b":":"}',
      '{"a":"\\\\\\\\\\\"{:}","b":[":",":"]}',
      '["\\\\",{"k":"]]]::"}]',
      `{"h":"${"0e123".repeat(50)}","n":1e5}`,
      '  {  "a"  :  [ 1 , { "b" : "c" } ]  }  ',
    ]) {
      expect(parseBoundedJson(text)).toEqual(JSON.parse(text));
    }
    // An escaped quote does not end the string, so the repeated key after it is still seen.
    expect(() => parseBoundedJson('{"a":"\\\\\\":x","a":1}')).toThrow(DuplicateKeyError);
    // Nor does a string ending in an escaped backslash hide the nesting after it.
    const deep = `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`;
    expect(() => parseBoundedJson(`["\\\\\\\\",${deep}]`)).toThrow(/nested deeper/);
  });

  test("a number too large is refused wherever it sits, before a repeated key is", () => {
    for (const text of ["[1,[2,[3e999]]]", '{"a":{"b":[{"c":-1e400}]}}', '{"k":1,"k":1e400}'])
      expect(() => parseBoundedJson(text)).toThrow(/too large/);
  });
});
