/**
 * A tiny tar WRITER for tests. It writes what it is told, including what no honest tool
 * would: absolute names, `..`, links, devices, duplicates, pax path overrides, GNU long
 * names, bad checksums, missing end markers. Compression is separate (`gzip`).
 */
import { createGzip } from "node:zlib";

export type TarType = "file" | "dir" | "symlink" | "hardlink" | "chardev" | "blockdev" | "fifo";

export interface TarEntrySpec {
  name: string;
  type?: TarType | { flag: string };
  data?: string | Uint8Array;
  mode?: number;
  linkname?: string;
  /** Header size field, when it should disagree with the data (e.g. a lying size). */
  size?: number;
  /** A pax `x` header with these records goes right before the entry. */
  pax?: Record<string, string>;
  /** Write the name as a GNU `L` long-name record (and a truncated name in the header). */
  gnuLongName?: boolean;
  /** Put this in the ustar prefix field (the header name stays `name`). */
  prefix?: string;
  badChecksum?: boolean;
  /** Raw bytes for the header name field (e.g. invalid UTF-8); overrides `name` there. */
  nameBytes?: Uint8Array;
}

export interface TarOptions {
  /** Write the two zero blocks that end an archive (default true). */
  end?: boolean;
  /** A global pax header (`g`) at the start. */
  globalPax?: Record<string, string>;
}

const FLAGS: Record<TarType, string> = {
  file: "0",
  dir: "5",
  symlink: "2",
  hardlink: "1",
  chardev: "3",
  blockdev: "4",
  fifo: "6",
};
const enc = new TextEncoder();

export function tar(entries: TarEntrySpec[], options: TarOptions = {}): Uint8Array {
  const blocks: Uint8Array[] = [];
  if (options.globalPax) blocks.push(...metaEntry("pax_global_header", "g", paxBody(options.globalPax)));
  for (const e of entries) {
    if (e.pax) blocks.push(...metaEntry(`PaxHeader/${e.name.slice(0, 80)}`, "x", paxBody(e.pax)));
    if (e.gnuLongName)
      blocks.push(...metaEntry("././@LongLink", "L", concat([enc.encode(e.name), new Uint8Array(1)]), "gnu"));
    const data = typeof e.data === "string" ? enc.encode(e.data) : (e.data ?? new Uint8Array(0));
    const type = e.type ?? (e.name.endsWith("/") ? "dir" : "file");
    const flag = typeof type === "string" ? FLAGS[type] : type.flag;
    const name = e.gnuLongName ? e.name.slice(0, 99) : e.name;
    blocks.push(
      header({
        name,
        mode: e.mode ?? (flag === "5" ? 0o755 : 0o644),
        size: e.size ?? data.length,
        flag,
        linkname: e.linkname ?? "",
        prefix: e.prefix,
        format: e.gnuLongName ? "gnu" : "ustar",
        badChecksum: e.badChecksum,
        nameBytes: e.nameBytes,
      }),
    );
    blocks.push(...dataBlocks(data));
  }
  if (options.end !== false) blocks.push(new Uint8Array(1024));
  return concat(blocks);
}

export function gzip(bytes: Uint8Array): Uint8Array {
  return Bun.gzipSync(bytes as Uint8Array<ArrayBuffer>);
}

/**
 * A gzip bomb: `count` files of `fileBytes` zeros each, compressed as a stream so the test
 * never holds the expanded bytes (64 MiB of zeros shrinks to about 64 KiB).
 */
export async function gzipBomb(count: number, fileBytes: number, top = "bomb"): Promise<Uint8Array> {
  const gz = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on("data", (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    gz.on("end", () => resolve());
    gz.on("error", reject);
  });
  const zeros = new Uint8Array(fileBytes);
  const write = (b: Uint8Array) =>
    new Promise<void>((resolve) => (gz.write(b) ? resolve() : gz.once("drain", () => resolve())));
  await write(
    tar(
      [
        { name: `${top}/gajae-plugin.json`, data: "{}" },
        { name: `${top}/plugin.json`, data: "{}" },
      ],
      { end: false },
    ),
  );
  for (let i = 0; i < count; i++) {
    await write(
      header({ name: `${top}/f${i}.bin`, mode: 0o644, size: fileBytes, flag: "0", linkname: "", format: "ustar" }),
    );
    await write(zeros);
    const pad = (512 - (fileBytes % 512)) % 512;
    if (pad) await write(new Uint8Array(pad));
  }
  await write(new Uint8Array(1024));
  gz.end();
  await done;
  return new Uint8Array(Buffer.concat(out));
}

function metaEntry(name: string, flag: string, body: Uint8Array, format: "ustar" | "gnu" = "ustar"): Uint8Array[] {
  return [header({ name, mode: 0o644, size: body.length, flag, linkname: "", format }), ...dataBlocks(body)];
}

/** Pax records: `<len> <key>=<value>\n`, where len counts the whole record including itself. */
function paxBody(records: Record<string, string>): Uint8Array {
  let out = "";
  for (const [k, v] of Object.entries(records)) {
    const rest = ` ${k}=${v}\n`;
    const restLen = enc.encode(rest).length;
    let len = restLen + 1;
    while (String(len).length + restLen !== len) len = String(len).length + restLen;
    out += `${len}${rest}`;
  }
  return enc.encode(out);
}

interface HeaderFields {
  name: string;
  mode: number;
  size: number;
  flag: string;
  linkname: string;
  prefix?: string;
  format: "ustar" | "gnu";
  badChecksum?: boolean;
  nameBytes?: Uint8Array;
}

function header(h: HeaderFields): Uint8Array {
  const b = new Uint8Array(512);
  if (h.nameBytes) b.set(h.nameBytes, 0);
  else putString(b, 0, 100, h.name);
  putOctal(b, 100, 8, h.mode);
  putOctal(b, 108, 8, 1000);
  putOctal(b, 116, 8, 1000);
  putOctal(b, 124, 12, h.size);
  putOctal(b, 136, 12, 1_700_000_000);
  b[156] = h.flag.charCodeAt(0);
  putString(b, 157, 100, h.linkname);
  if (h.format === "gnu") putString(b, 257, 8, "ustar  \0");
  else {
    putString(b, 257, 6, "ustar\0");
    putString(b, 263, 2, "00");
  }
  if (h.prefix !== undefined) putString(b, 345, 155, h.prefix);
  b.fill(0x20, 148, 156);
  let sum = 0;
  for (const x of b) sum += x;
  if (h.badChecksum) sum += 1;
  putString(b, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return b;
}

function putString(b: Uint8Array, off: number, len: number, s: string): void {
  const bytes = enc.encode(s);
  if (bytes.length > len) throw new Error(`tar field too long: ${s}`);
  b.set(bytes, off);
}

function putOctal(b: Uint8Array, off: number, len: number, n: number): void {
  putString(b, off, len, `${n.toString(8).padStart(len - 1, "0")}\0`);
}

function dataBlocks(data: Uint8Array): Uint8Array[] {
  if (data.length === 0) return [];
  const pad = (512 - (data.length % 512)) % 512;
  return pad ? [data, new Uint8Array(pad)] : [data];
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
