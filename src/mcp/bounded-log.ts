/**
 * Keeps the last `max` bytes written to it (a server's stderr), counting what it dropped, so
 * a server that floods stderr cannot grow our memory and its last words are still shown.
 */
export class BoundedLog {
  private chunks: Uint8Array[] = [];
  private size = 0;
  dropped = 0;

  constructor(private readonly max: number) {}

  write(chunk: Uint8Array): void {
    if (chunk.byteLength >= this.max) {
      this.dropped += this.size + chunk.byteLength - this.max;
      this.chunks = [chunk.slice(chunk.byteLength - this.max)];
      this.size = this.max;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.byteLength;
    while (this.size > this.max) {
      const first = this.chunks[0];
      const excess = this.size - this.max;
      if (first.byteLength <= excess) {
        this.chunks.shift();
        this.size -= first.byteLength;
        this.dropped += first.byteLength;
      } else {
        this.chunks[0] = first.slice(excess);
        this.size -= excess;
        this.dropped += excess;
      }
    }
  }

  /** The kept text, with a marker when the start was dropped. */
  text(): string {
    const body = new TextDecoder().decode(Buffer.concat(this.chunks));
    return this.dropped > 0 ? `[… ${this.dropped} earlier bytes dropped]\n${body}` : body;
  }

  /** The last `lines` lines, for error details. */
  tail(lines = 20): string {
    const all = this.text().trimEnd().split("\n");
    return all.slice(-lines).join("\n");
  }
}
