import { mcpError } from "./errors.ts";

/**
 * Splits a byte stream into newline-terminated lines of at most `maxBytes` each (the line
 * terminator excluded, a trailing "\r" dropped). A line that grows past the cap fails as
 * soon as it does, without buffering the rest, so a server cannot make us hold an unbounded
 * line. The last line needs no terminator.
 */
export async function* readLines(stream: ReadableStream<Uint8Array>, maxBytes: number, what: string): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let parts: Uint8Array[] = [];
  let length = 0;
  const take = (): Uint8Array => {
    const line = parts.length === 1 ? parts[0] : Buffer.concat(parts, length);
    parts = [];
    length = 0;
    return line.byteLength > 0 && line[line.byteLength - 1] === 13 ? line.subarray(0, line.byteLength - 1) : line;
  };
  const tooLong = () =>
    mcpError(
      "mcp_frame_too_large",
      `${what} sent a message longer than ${maxBytes} bytes`,
      "MCP messages are limited to 1 MiB each; fix the server so it sends smaller messages",
      { limit: maxBytes },
    );
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let start = 0;
      for (;;) {
        const nl = value.indexOf(10, start);
        const end = nl === -1 ? value.byteLength : nl;
        const piece = value.subarray(start, end);
        // +1 allows the "\r" of a CRLF terminator at exactly the cap.
        if (length + piece.byteLength > maxBytes + 1) throw tooLong();
        if (piece.byteLength > 0) {
          parts.push(piece);
          length += piece.byteLength;
        }
        if (nl === -1) break;
        const line = take();
        if (line.byteLength > maxBytes) throw tooLong();
        yield line;
        start = nl + 1;
      }
    }
    if (length > 0) {
      const line = take();
      if (line.byteLength > maxBytes) throw tooLong();
      yield line;
    }
  } finally {
    reader.releaseLock();
  }
}
