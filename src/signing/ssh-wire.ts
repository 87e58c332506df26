/**
 * The SSH wire encoding (RFC 4251 §5) that keys, signatures and the agent protocol share:
 * big-endian uint32, length-prefixed `string`s and two's-complement `mpint`s.
 */

export class WireFormatError extends Error {}

export class WireReader {
  private pos = 0;
  constructor(private readonly buf: Uint8Array) {}

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  uint32(): number {
    if (this.remaining < 4) throw new WireFormatError("truncated uint32");
    const v =
      ((this.buf[this.pos] << 24) |
        (this.buf[this.pos + 1] << 16) |
        (this.buf[this.pos + 2] << 8) |
        this.buf[this.pos + 3]) >>>
      0;
    this.pos += 4;
    return v;
  }

  byte(): number {
    if (this.remaining < 1) throw new WireFormatError("truncated byte");
    return this.buf[this.pos++];
  }

  raw(n: number): Uint8Array {
    if (n > this.remaining) throw new WireFormatError("truncated field");
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): Uint8Array {
    return this.raw(this.uint32());
  }

  text(): string {
    return new TextDecoder("utf-8", { fatal: true }).decode(this.string());
  }

  /** An mpint as its unsigned magnitude (the leading sign byte dropped); negative values are refused. */
  mpint(): Uint8Array {
    const b = this.string();
    if (b.length > 0 && (b[0] & 0x80) !== 0) throw new WireFormatError("negative mpint");
    let i = 0;
    while (i < b.length && b[i] === 0) i++;
    return b.subarray(i);
  }

  end(): void {
    if (this.remaining !== 0) throw new WireFormatError("trailing bytes");
  }
}

export class WireWriter {
  private parts: Uint8Array[] = [];

  raw(b: Uint8Array | string): this {
    this.parts.push(typeof b === "string" ? new TextEncoder().encode(b) : b);
    return this;
  }

  uint32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v >>> 0);
    return this.raw(b);
  }

  byte(v: number): this {
    return this.raw(Uint8Array.of(v));
  }

  string(b: Uint8Array | string): this {
    const bytes = typeof b === "string" ? new TextEncoder().encode(b) : b;
    return this.uint32(bytes.length).raw(bytes);
  }

  /** An unsigned magnitude as an mpint: leading zeros trimmed, a zero byte added when the top bit is set. */
  mpint(magnitude: Uint8Array): this {
    let i = 0;
    while (i < magnitude.length && magnitude[i] === 0) i++;
    const m = magnitude.subarray(i);
    if (m.length > 0 && (m[0] & 0x80) !== 0) {
      const padded = new Uint8Array(m.length + 1);
      padded.set(m, 1);
      return this.string(padded);
    }
    return this.string(m);
  }

  bytes(): Uint8Array {
    const n = this.parts.reduce((s, p) => s + p.length, 0);
    const out = new Uint8Array(n);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
}
