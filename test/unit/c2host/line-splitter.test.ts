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

  test("whole-line chunks (the fast path) split exactly like the byte walk, BOMs and limit included", () => {
    const text = '{"a":1}\n\uFEFF{"b":"é🌍"}\n\n\r\n{"c":[1,2]}\n\uFEFFx\n';
    const all = bytes(text);
    // Reference: one byte at a time never has a whole line with nothing pending... except
    // single "\n" chunks, which are trivially the same; every other cut goes the slow way.
    const reference: string[] = [];
    const slow = new LineSplitter();
    for (let i = 0; i < all.length; i++) reference.push(...slow.push(all.subarray(i, i + 1)));
    expect(reference).toEqual(['{"a":1}', '{"b":"é🌍"}', "", "\r", '{"c":[1,2]}', "x"]);
    // One chunk, and every cut into two chunks that each end on a newline where possible.
    expect(new LineSplitter().push(all)).toEqual(reference);
    for (let cut = 1; cut < all.length; cut++) {
      const s = new LineSplitter();
      expect([...s.push(all.subarray(0, cut)), ...s.push(all.subarray(cut))]).toEqual(reference);
      expect(s.flush()).toBeUndefined();
    }
  });

  test("a whole-line chunk at the limit passes and one byte over fails, as with partial chunks", () => {
    // 8 bytes: the chunk fits the limit, so it is taken whole.
    expect(new LineSplitter(8).push(bytes("123\n456\n"))).toEqual(["123", "456"]);
    // 10 bytes: too big to take whole, yet each line fits.
    expect(new LineSplitter(8).push(bytes("1\n2345678\n"))).toEqual(["1", "2345678"]);
    expect(() => new LineSplitter(8).push(bytes("1\n23456789\n"))).toThrow(FrameTooLargeError);
    expect(new LineSplitter(8).push(bytes("1234567\n"))).toEqual(["1234567"]);
  });
});
