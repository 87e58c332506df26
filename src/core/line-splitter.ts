/**
 * The one bounded reader of newline-delimited messages (NDJSON): the C2 protocol, the
 * management plane, MCP stdio servers, server-sent events and children's stderr all split
 * their bytes here.
 */

const NEWLINE = 0x0a;
const CR = 0x0d;

/** One protocol frame, in either direction (C2 Plugin Protocol hardening, MCP). */
export const MAX_LINE_FRAME_BYTES = 1024 * 1024;

/** Raised when a line grows past the limit before its newline arrives. */
export class FrameTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`plugin protocol message exceeds the ${limit === MAX_LINE_FRAME_BYTES ? "1 MiB" : `${limit}-byte`} limit`);
    this.name = "FrameTooLargeError";
  }
}

export interface LineSplitterOptions {
  /** Throw a TypeError on bytes that are not UTF-8 instead of decoding them to U+FFFD. */
  fatal?: boolean;
}

/**
 * Splits a byte stream into lines. It works on bytes, not text: `\n` never occurs inside a
 * multi-byte UTF-8 sequence, so a character split across two chunks is decoded whole once its
 * line is complete. The limit counts the line and its `\n` (a `\r` before it is dropped and not
 * counted), and it holds while a line is still open, so a peer that never sends `\n` cannot make
 * us buffer without bound.
 */
export class LineSplitter {
  private parts: Uint8Array[] = [];
  private buffered = 0;
  private readonly decoder: TextDecoder;

  constructor(
    private readonly maxFrameBytes: number = MAX_LINE_FRAME_BYTES,
    options: LineSplitterOptions = {},
  ) {
    this.decoder = new TextDecoder("utf-8", { fatal: options.fatal ?? false });
  }

  /** Feeds one chunk; returns the complete lines it closed (without their terminator). */
  push(chunk: Uint8Array): string[] {
    const lines: string[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      // The newline still to come makes the frame one byte longer than what is buffered; a CR
      // that ends the piece may be the first half of a CRLF, so it is not counted.
      const counted = this.buffered + piece.length + 1 - (piece.at(-1) === CR ? 1 : 0);
      if (counted > this.maxFrameBytes) throw new FrameTooLargeError(this.maxFrameBytes);
      if (nl === -1) {
        this.parts.push(piece.slice());
        this.buffered += piece.length;
        break;
      }
      lines.push(this.take(piece));
      start = nl + 1;
    }
    return lines;
  }

  /** The unterminated rest at end of stream, if any. */
  flush(): string | undefined {
    return this.buffered === 0 ? undefined : this.take(new Uint8Array(0));
  }

  private take(last: Uint8Array): string {
    const bytes = this.parts.length === 0 ? last : Buffer.concat([...this.parts, last]);
    this.parts = [];
    this.buffered = 0;
    const text = this.decoder.decode(bytes);
    return text.endsWith("\r") ? text.slice(0, -1) : text;
  }
}

/** The lines of a stream, the last one needing no terminator; throws FrameTooLargeError. */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
  maxFrameBytes: number,
  options: LineSplitterOptions = {},
): AsyncGenerator<string> {
  const splitter = new LineSplitter(maxFrameBytes, options);
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* splitter.push(value);
    }
    const rest = splitter.flush();
    if (rest !== undefined) yield rest;
  } finally {
    reader.releaseLock();
  }
}
