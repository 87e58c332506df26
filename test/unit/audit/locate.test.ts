import { describe, expect, test } from "bun:test";
import { locatePointer, pointerLocator } from "../../../src/audit/locate.ts";

const text = `{
  "name": "x",
  "mcpServers": {
    "a/b": { "command": "npx", "args": ["-y", "pkg"] },
    "t~n": {
      "url": "http://h"
    }
  },
  "list": [1, [2, {"k": true}]]
}
`;

describe("locatePointer", () => {
  test("finds the start of values, escaped keys included", () => {
    const at = pointerLocator(text);
    expect(at("")).toEqual({ line: 1, column: 1 });
    expect(at("/name")).toEqual({ line: 2, column: 11 });
    expect(at("/mcpServers/a~1b/command")).toEqual({ line: 4, column: 25 });
    expect(at("/mcpServers/a~1b/args/1")).toEqual({ line: 4, column: 47 });
    expect(at("/mcpServers/t~0n/url")).toEqual({ line: 6, column: 14 });
    expect(at("/list/1/1/k")).toEqual({ line: 9, column: 25 });
  });

  test("a pointer to nothing falls back to its nearest parent, then the file start", () => {
    expect(locatePointer(text, "/mcpServers/a~1b/env")).toEqual({ line: 4, column: 12 });
    expect(locatePointer(text, "/missing/deep")).toEqual({ line: 1, column: 1 });
    expect(locatePointer("{ broken", "/x")).toEqual({ line: 1, column: 1 });
  });

  test("CRLF line ends and a BOM", () => {
    expect(locatePointer('\uFEFF{\r\n  "a": 1\r\n}', "/a")).toEqual({ line: 2, column: 8 });
  });
});
