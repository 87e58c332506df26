import { MAX_FRAME_BYTES } from "./limits.ts";

const NEWLINE = 0x0a;

/** Raised when a line grows past the frame limit before its newline arrives. */
export class FrameTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`plugin protocol message exceeds the ${limit === MAX_FRAME_BYTES ? "1 MiB" : `${limit}-byte`} limit`);
    this.name = "FrameTooLargeError";
  }
}

/**
 * Splits a byte stream into lines. It works on bytes, not text: `\n` (0x0A) never occurs inside
 * a multi-byte UTF-8 sequence, so a character split across two chunks is decoded whole once its
 * line is complete. The limit counts the newline, and is enforced while a line is still open so
 * a peer that never sends `\n` cannot make us buffer without bound.
 */
export class LineSplitter {
  private parts: Uint8Array[] = [];
  private buffered = 0;
  private readonly decoder = new TextDecoder("utf-8", { fatal: false });

  constructor(private readonly maxFrameBytes: number = MAX_FRAME_BYTES) {}

  /** Feeds one chunk; returns the complete lines it closed (without `\n`, `\r` kept). */
  push(chunk: Uint8Array): string[] {
    const n = chunk.length;
    if (this.buffered === 0 && this.parts.length === 0 && n > 0 && n <= this.maxFrameBytes && chunk[n - 1] === NEWLINE) {
      // The usual chunk: whole lines and nothing pending. It cannot hold a line over the limit,
      // and it ends on a character boundary, so one decode and a string split give the same
      // lines as the byte walk below without a view and a decode per line.
      const text = this.decoder.decode(chunk);
      // One answer per chunk is the common case of sequential calls.
      if (text.indexOf("\n") === text.length - 1) return [text.slice(0, -1)];
      const lines = text.split("\n");
      lines.pop();
      // The byte walk decodes line by line, and each decode drops a leading BOM: so do we.
      for (let i = 1; i < lines.length; i++) if (lines[i].charCodeAt(0) === 0xfeff) lines[i] = lines[i].slice(1);
      return lines;
    }
    const lines: string[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        const tail = chunk.subarray(start);
        // The newline still to come makes the frame one byte longer than what is buffered.
        if (this.buffered + tail.length + 1 > this.maxFrameBytes) throw new FrameTooLargeError(this.maxFrameBytes);
        this.parts.push(tail.slice());
        this.buffered += tail.length;
        break;
      }
      const piece = chunk.subarray(start, nl);
      if (this.buffered + piece.length + 1 > this.maxFrameBytes) throw new FrameTooLargeError(this.maxFrameBytes);
      lines.push(this.take(piece));
      start = nl + 1;
    }
    return lines;
  }

  /** The unterminated rest at end of stream, if any. */
  flush(): string | undefined {
    if (this.buffered === 0 && this.parts.length === 0) return undefined;
    return this.take(new Uint8Array(0));
  }

  private take(last: Uint8Array): string {
    let bytes: Uint8Array;
    if (this.parts.length === 0) bytes = last;
    else {
      bytes = new Uint8Array(this.buffered + last.length);
      let at = 0;
      for (const p of this.parts) {
        bytes.set(p, at);
        at += p.length;
      }
      bytes.set(last, at);
      this.parts = [];
      this.buffered = 0;
    }
    return this.decoder.decode(bytes);
  }
}
