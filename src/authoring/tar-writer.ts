/**
 * A deterministic ustar writer for `gjc plugin pack`: entries in the order given (callers
 * sort), fixed mtime, uid/gid 0, no user or group names, modes normalized to 0644/0755.
 * Paths that do not fit ustar's name/prefix fields get a PAX `path` record, so any path the
 * GJC budget allows (1,024 bytes) round-trips.
 */
export interface TarInput {
  path: string;
  bytes: Uint8Array;
  executable: boolean;
}

/** 2000-01-01T00:00:00Z: a fixed, plausible timestamp (some tools warn on a zero mtime). */
export const PACK_MTIME = 946684800;

const BLOCK = 512;
const encoder = new TextEncoder();

export function writeTar(entries: TarInput[]): Uint8Array {
  // Two passes into one buffer: thousands of small per-entry arrays cost more in GC than the copying.
  const planned = entries.map((e) => {
    const split = splitUstarName(e.path);
    const pax = split ? undefined : paxRecord("path", e.path);
    return { e, split, pax };
  });
  let total = BLOCK * 2;
  for (const p of planned) total += (p.pax ? BLOCK + roundUp(p.pax.length) : 0) + BLOCK + roundUp(p.e.bytes.length);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const { e, split, pax } of planned) {
    if (pax) {
      writeHeader(out, offset, { name: "PaxHeader/entry", prefix: "", size: pax.length, mode: 0o644, type: "x" });
      out.set(pax, offset + BLOCK);
      offset += BLOCK + roundUp(pax.length);
    }
    const { name, prefix } = split ?? { name: truncateBytes(e.path, 100), prefix: "" };
    writeHeader(out, offset, { name, prefix, size: e.bytes.length, mode: e.executable ? 0o755 : 0o644, type: "0" });
    out.set(e.bytes, offset + BLOCK);
    offset += BLOCK + roundUp(e.bytes.length);
  }
  return out;
}

const roundUp = (n: number) => Math.ceil(n / BLOCK) * BLOCK;

/** Splits a path into ustar prefix (≤155 bytes) and name (≤100 bytes) at a slash, or undefined. */
function splitUstarName(path: string): { name: string; prefix: string } | undefined {
  const bytes = encoder.encode(path);
  if (bytes.length <= 100) return { name: path, prefix: "" };
  for (let i = path.length - 1; i > 0; i--) {
    if (path[i] !== "/") continue;
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(name).length <= 100 && name.length > 0)
      return { name, prefix };
  }
  return undefined;
}

function truncateBytes(s: string, max: number): string {
  let out = "";
  for (const ch of s) {
    if (encoder.encode(out + ch).length > max) break;
    out += ch;
  }
  return out;
}

/** One PAX record: "<len> key=value\n", where len counts itself. */
function paxRecord(key: string, value: string): Uint8Array {
  const body = ` ${key}=${value}\n`;
  const n = encoder.encode(body).length;
  let digits = String(n).length;
  if (String(n + digits).length > digits) digits += 1;
  return encoder.encode(`${n + digits}${body}`);
}

function writeHeader(
  out: Uint8Array,
  at: number,
  h: { name: string; prefix: string; size: number; mode: number; type: string },
): void {
  const b = out.subarray(at, at + BLOCK);
  const put = (offset: number, length: number, value: string) =>
    void encoder.encodeInto(value, b.subarray(offset, offset + length));
  const octal = (offset: number, length: number, value: number) =>
    put(offset, length, `${value.toString(8).padStart(length - 1, "0")}\0`);
  put(0, 100, h.name);
  octal(100, 8, h.mode);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, h.size);
  octal(136, 12, PACK_MTIME);
  b.fill(0x20, 148, 156);
  put(156, 1, h.type);
  put(257, 6, "ustar\0");
  put(263, 2, "00");
  put(345, 155, h.prefix);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += b[i];
  put(148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
}
