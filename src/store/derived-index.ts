/**
 * The store's derived, disposable indexes (GJC `registry.index.json` for list, C2
 * `installed-index.json` for the policy catalog): a header line `{"format":N,"sha256":"<hex of
 * the body>"}`, then the JSON body. A reader uses an index only when its format is the one it
 * knows and the digest matches (a torn or edited file does not), and then only when the stamps it
 * holds match the files it was made from; anything else means the full, fail-closed read. The
 * index is written without fsync: after a power loss it may be old or empty, and then simply
 * does not match.
 */
import { lstatSync, statSync } from "node:fs";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { sha256Hex } from "../bundle/hash.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import type { LazySchema } from "../families/c2/schema-errors.ts";

/** An index is never read past this size (it is a summary of at most a few thousand records). */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/**
 * Identifies one version of a file without reading it: inode, size and change time. gjc
 * replaces the files it indexes by rename (a new inode); an edit in place changes the change
 * time, which a user cannot set back (unlike the modification time), and usually the size.
 */
export function fileStamp(path: string): string | undefined {
  try {
    const st = statSync(path, { bigint: true });
    return `${st.ino}:${st.size}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * A stricter stamp for content gjc checks before it runs it (src/c2store/files-stamp.ts): the
 * fileStamp fields plus modification time and mode, of the path itself (a link is not followed).
 */
export function statStamp(path: string): string | undefined {
  try {
    const st = lstatSync(path, { bigint: true });
    return `${st.ino}:${st.size}:${st.ctimeNs}:${st.mtimeNs}:${st.mode}`;
  } catch {
    return undefined;
  }
}

export function writeDerivedIndex(path: string, format: number, body: unknown): void {
  const text = JSON.stringify(body);
  writeFileAtomic(path, `${JSON.stringify({ format, sha256: sha256Hex(text) })}\n${text}`, { durable: false });
}

/**
 * The body of an index of this format whose digest matches and that has the shape of
 * `schema` (src/store/index-schemas.ts), or undefined (never throws). A body of another shape
 * is not explained, only not used: the caller's full read is the fail-closed answer.
 */
export function readDerivedIndex(path: string, format: number, schema: LazySchema): unknown {
  try {
    const text = new TextDecoder().decode(readRegularFile(path, MAX_INDEX_BYTES).bytes);
    const newline = text.indexOf("\n");
    if (newline === -1) return undefined;
    const header = JSON.parse(text.slice(0, newline)) as { format?: unknown; sha256?: unknown };
    const body = text.slice(newline + 1);
    if (header.format !== format || header.sha256 !== sha256Hex(body)) return undefined;
    const value: unknown = JSON.parse(body);
    return schema.check(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
