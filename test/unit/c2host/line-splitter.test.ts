import { describe, expect, test } from "bun:test";
import { FrameTooLargeError, LineSplitter } from "../../../src/c2host/line-splitter.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("line splitter", () => {
  test("a UTF-8 character split across chunks is decoded whole", () => {
    const all = bytes('{"word":"héllo 🌍"}\n');
    const cut = all.indexOf(0xf0) + 2; // inside the 4-byte emoji
    const s = new LineSplitter();
    expect(s.push(all.subarray(0, cut))).toEqual([]);
    expect(s.push(all.subarray(cut))).toEqual(['{"word":"héllo 🌍"}']);
  });

  test("several lines in one chunk, one line over many chunks", () => {
    const s = new LineSplitter();
    expect(s.push(bytes("a\nb\nc"))).toEqual(["a", "b"]);
    expect(s.push(bytes("d"))).toEqual([]);
    expect(s.push(bytes("e\n"))).toEqual(["cde"]);
    expect(s.flush()).toBeUndefined();
    s.push(bytes("tail"));
    expect(s.flush()).toBe("tail");
  });

  test("the limit counts the newline and applies before the newline arrives", () => {
    const s = new LineSplitter(8);
    expect(s.push(bytes("1234567\n"))).toEqual(["1234567"]);
    expect(() => new LineSplitter(8).push(bytes("12345678\n"))).toThrow(FrameTooLargeError);
    const open = new LineSplitter(8);
    open.push(bytes("1234"));
    expect(() => open.push(bytes("5678"))).toThrow(FrameTooLargeError);
  });

  test("1 MiB + 1 bytes without a newline fail with a message naming the limit", () => {
    const s = new LineSplitter();
    expect(() => s.push(new Uint8Array(1024 * 1024 + 1).fill(0x61))).toThrow("plugin protocol message exceeds the 1 MiB limit");
  });
});
