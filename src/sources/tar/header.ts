/**
 * Field decoding for one 512-byte tar header (ustar, POSIX pax and GNU variants). Only what
 * the judge needs; every field we read is validated, never "repaired".
 */

export const BLOCK = 512;

export type HeaderFormat = "ustar" | "gnu" | "v7";

export interface RawHeader {
  /** Name as the header itself spells it (ustar prefix joined); pax/GNU overrides come later. */
  name: string;
  mode: number;
  size: number;
  typeflag: string;
  format: HeaderFormat;
}

export class HeaderError extends Error {}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function isZeroBlock(block: Uint8Array): boolean {
  for (let i = 0; i < BLOCK; i++) if (block[i] !== 0) return false;
  return true;
}

/** The stored checksum must equal the byte sum with the checksum field read as spaces (unsigned, or the historic signed sum). */
export function checksumMatches(block: Uint8Array): boolean {
  const stored = parseOctal(block, 148, 8, "checksum");
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : block[i];
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return stored === unsigned || stored === signed;
}

export function decodeHeader(block: Uint8Array): RawHeader {
  const magic = String.fromCharCode(...block.subarray(257, 263));
  const version = String.fromCharCode(...block.subarray(263, 265));
  const format: HeaderFormat = magic === "ustar\0" ? "ustar" : magic === "ustar " && version === " \0" ? "gnu" : "v7";
  const typeflag = block[156] === 0 ? "0" : String.fromCharCode(block[156]);
  let name = cString(block, 0, 100, "name");
  // The ustar prefix field exists only in POSIX ustar; GNU stores other data in those bytes.
  if (format === "ustar") {
    const prefix = cString(block, 345, 155, "prefix");
    if (prefix !== "") name = `${prefix}/${name}`;
  }
  return { name, mode: parseOctal(block, 100, 8, "mode"), size: parseOctal(block, 124, 12, "size"), typeflag, format };
}

/** A NUL-terminated (or full-width) UTF-8 field. Invalid UTF-8 is refused, not guessed at. */
export function cString(block: Uint8Array, offset: number, length: number, what: string): string {
  let end = offset;
  while (end < offset + length && block[end] !== 0) end++;
  return decodeUtf8(block.subarray(offset, end), what);
}

export function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HeaderError(`the ${what} is not valid UTF-8`);
  }
}

/** Octal digits, optionally padded with spaces/NULs. GNU base-256 (high bit set) is refused: no entry we accept needs it. */
export function parseOctal(block: Uint8Array, offset: number, length: number, what: string): number {
  if (block[offset] & 0x80) throw new HeaderError(`the ${what} field uses base-256 encoding`);
  let s = "";
  for (let i = offset; i < offset + length; i++) {
    const c = block[i];
    if (c === 0) break;
    s += String.fromCharCode(c);
  }
  s = s.trim();
  if (s === "") return 0;
  if (!/^[0-7]+$/.test(s)) throw new HeaderError(`the ${what} field is not octal`);
  const n = Number.parseInt(s, 8);
  if (!Number.isSafeInteger(n)) throw new HeaderError(`the ${what} field is out of range`);
  return n;
}

/**
 * POSIX pax records: `<len> <key>=<value>\n`, where <len> counts the whole record. Strict:
 * a malformed record, or the same key twice in one header, is refused.
 */
export function parsePaxRecords(data: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  let pos = 0;
  while (pos < data.length) {
    if (data[pos] === 0) {
      // Trailing NUL padding inside the declared size is tolerated only if nothing follows.
      for (let i = pos; i < data.length; i++) if (data[i] !== 0) throw new HeaderError("a pax record is malformed");
      break;
    }
    let sp = pos;
    while (sp < data.length && data[sp] >= 0x30 && data[sp] <= 0x39) sp++;
    if (sp === pos || sp >= data.length || data[sp] !== 0x20) throw new HeaderError("a pax record length is malformed");
    const len = Number.parseInt(String.fromCharCode(...data.subarray(pos, sp)), 10);
    if (!Number.isSafeInteger(len) || len <= sp - pos + 1 || pos + len > data.length || data[pos + len - 1] !== 0x0a) {
      throw new HeaderError("a pax record length is malformed");
    }
    const record = data.subarray(sp + 1, pos + len - 1);
    const eq = record.indexOf(0x3d);
    if (eq <= 0) throw new HeaderError("a pax record has no key");
    const key = decodeUtf8(record.subarray(0, eq), "pax key");
    const value = decodeUtf8(record.subarray(eq + 1), `pax ${key} value`);
    if (out.has(key)) throw new HeaderError(`the pax key ${key} appears twice`);
    out.set(key, value);
    pos += len;
  }
  return out;
}
