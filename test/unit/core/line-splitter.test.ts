import { describe, expect, test } from "bun:test";
import { FrameTooLargeError, LineSplitter, readLines } from "../../../src/core/line-splitter.ts";

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
    expect(() => s.push(new Uint8Array(1024 * 1024 + 1).fill(0x61))).toThrow(
      "plugin protocol message exceeds the 1 MiB limit",
    );
  });

  test("every cut of a stream gives the same lines: CRLF, blank lines and BOMs included", () => {
    const all = bytes('{"a":1}\n\uFEFF{"b":"é🌍"}\n\n\r\n{"c":[1,2]}\n\uFEFFx\n');
    const expected = ['{"a":1}', '{"b":"é🌍"}', "", "", '{"c":[1,2]}', "x"];
    expect(new LineSplitter().push(all)).toEqual(expected);
    const byteByByte = new LineSplitter();
    expect([...all].flatMap((_, i) => byteByByte.push(all.subarray(i, i + 1)))).toEqual(expected);
    for (let cut = 1; cut < all.length; cut++) {
      const s = new LineSplitter();
      expect([...s.push(all.subarray(0, cut)), ...s.push(all.subarray(cut))]).toEqual(expected);
      expect(s.flush()).toBeUndefined();
    }
  });

  test("a CR before the newline is dropped and not counted", () => {
    expect(new LineSplitter(8).push(bytes("1234567\r\n"))).toEqual(["1234567"]);
    expect(() => new LineSplitter(8).push(bytes("12345678\r\n"))).toThrow(FrameTooLargeError);
  });

  test("fatal decoding refuses bytes that are not UTF-8", () => {
    expect(() => new LineSplitter(100, { fatal: true }).push(new Uint8Array([0xff, 0x0a]))).toThrow(TypeError);
    expect(new LineSplitter(100).push(new Uint8Array([0xff, 0x0a]))).toEqual(["\uFFFD"]);
  });

  test("readLines yields every line of a stream, the last one unterminated", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const part of ["a\nb", "c\r\n", "last"]) c.enqueue(bytes(part));
        c.close();
      },
    });
    const out: string[] = [];
    for await (const line of readLines(stream, 100)) out.push(line);
    expect(out).toEqual(["a", "bc", "last"]);
  });

  test("several lines in one chunk: each is held to the limit on its own", () => {
    expect(new LineSplitter(8).push(bytes("123\n456\n"))).toEqual(["123", "456"]);
    expect(new LineSplitter(8).push(bytes("1\n2345678\n"))).toEqual(["1", "2345678"]);
    expect(() => new LineSplitter(8).push(bytes("1\n23456789\n"))).toThrow(FrameTooLargeError);
    expect(new LineSplitter(8).push(bytes("1234567\n"))).toEqual(["1234567"]);
  });
});
