import { describe, expect, test } from "bun:test";
import { offsetToPosition, pointerSegments, positionOfPointer } from "../../../src/core/json-position.ts";

const text = '{\n  "a": 1,\n  "b": [ {"x": 2}, {"y": "z/w"} ],\n  "c/d": {"e~f": true},\n  "é": "ü"\n}\n';

describe("positionOfPointer", () => {
  test("a member is placed at its key; an array element at itself", () => {
    expect(positionOfPointer(text, "/a")).toEqual({ line: 2, column: 3 });
    expect(positionOfPointer(text, "/b")).toEqual({ line: 3, column: 3 });
    expect(positionOfPointer(text, "/b/1")).toEqual({ line: 3, column: 20 });
    expect(positionOfPointer(text, "/b/1/y")).toEqual({ line: 3, column: 21 });
    expect(positionOfPointer(text, "/é")).toEqual({ line: 5, column: 3 });
  });

  test("RFC 6901 escapes: ~1 is '/', ~0 is '~'", () => {
    expect(pointerSegments("/c~1d/e~0f")).toEqual(["c/d", "e~f"]);
    expect(positionOfPointer(text, "/c~1d/e~0f")).toEqual({ line: 4, column: 11 });
  });

  test("what is not there falls back to the deepest part of the path that is", () => {
    expect(positionOfPointer(text, "/b/5")).toEqual({ line: 3, column: 3 });
    expect(positionOfPointer(text, "/b/0/x/deeper")).toEqual({ line: 3, column: 11 });
    expect(positionOfPointer(text, "/missing")).toEqual({ line: 1, column: 1 });
    expect(positionOfPointer(text, "")).toEqual({ line: 1, column: 1 });
  });

  test("a document with a syntax error still places what parsed; text that is no JSON is line 1", () => {
    expect(positionOfPointer('{\n  "a": 1,\n  "b": oops\n}', "/a")).toEqual({ line: 2, column: 3 });
    expect(positionOfPointer("not json", "/a")).toEqual({ line: 1, column: 1 });
  });

  test("offsets count CRLF lines and UTF-16 columns", () => {
    expect(offsetToPosition("a\r\nbc", 4)).toEqual({ line: 2, column: 2 });
  });
});
