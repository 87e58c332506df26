/**
 * LSP base protocol framing: `Content-Length: N\r\n\r\n` followed by N bytes of JSON. Header
 * and body arrive in arbitrary chunks; lengths count bytes, not characters.
 */
export class LspFrameReader {
  private buffer = new Uint8Array(0);

  constructor(private readonly maxBody = 16 * 1024 * 1024) {}

  push(chunk: Uint8Array): unknown[] {
    const merged = new Uint8Array(this.buffer.length + chunk.length);
    merged.set(this.buffer);
    merged.set(chunk, this.buffer.length);
    this.buffer = merged;
    const out: unknown[] = [];
    for (;;) {
      const headerEnd = indexOfCrlfCrlf(this.buffer);
      if (headerEnd === -1) {
        if (this.buffer.length > 8192) throw new Error("LSP header is too long");
        return out;
      }
      const header = new TextDecoder().decode(this.buffer.subarray(0, headerEnd));
      const m = /(?:^|\r\n)content-length:\s*(\d+)/i.exec(header);
      if (!m) throw new Error("LSP message without Content-Length");
      const length = Number(m[1]);
      if (length > this.maxBody) throw new Error("LSP message is too large");
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) return out;
      out.push(JSON.parse(new TextDecoder().decode(this.buffer.subarray(start, start + length))));
      this.buffer = this.buffer.slice(start + length);
    }
  }
}

export function lspFrame(message: unknown): Uint8Array {
  const body = new TextEncoder().encode(JSON.stringify(message));
  const header = new TextEncoder().encode(`Content-Length: ${body.length}\r\n\r\n`);
  const out = new Uint8Array(header.length + body.length);
  out.set(header);
  out.set(body, header.length);
  return out;
}

function indexOfCrlfCrlf(b: Uint8Array): number {
  for (let i = 0; i + 3 < b.length; i++)
    if (b[i] === 13 && b[i + 1] === 10 && b[i + 2] === 13 && b[i + 3] === 10) return i;
  return -1;
}
