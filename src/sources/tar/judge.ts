import type { BundleLimits } from "../../bundle/limits.ts";
import { collisionKey } from "../../bundle/names.ts";
import { formatBytes } from "../../bundle/collect.ts";
import { sourceError } from "../errors.ts";
import { judgeEntryName } from "./entry-name.ts";
import { BLOCK, checksumMatches, cString, decodeHeader, HeaderError, isZeroBlock, parsePaxRecords } from "./header.ts";

/** An entry that passed every rule; files carry their bytes (the budget bounds them). */
export interface JudgedEntry {
  path: string;
  /** "symlink" only from git trees (tar links are refused); written as a link, never followed. */
  type: "file" | "dir" | "symlink";
  /** 0o755 or 0o644 for files (executable bit kept, nothing else); 0o755 for directories. */
  mode: number;
  data?: Uint8Array;
  linkTarget?: string;
}

/** Metadata and long-name records are small; anything bigger is an attack on our memory. */
const MAX_META_BYTES = 64 * 1024;
/** Extra depth / path bytes allowed while streaming, for a single top folder stripped later. */
const TOP_FOLDER_DEPTH_SLACK = 1;
const TOP_FOLDER_PATH_SLACK = 256;

export interface TarBudget {
  maxFiles: number;
  maxEntries: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  /** Decompressed tar stream bytes (headers, padding and data together). */
  maxStreamBytes: number;
  maxDepth: number;
  maxPathBytes?: number;
}

export function tarBudget(limits: BundleLimits): TarBudget {
  const maxEntries = limits.maxFiles * 2 + 16;
  return {
    maxFiles: limits.maxFiles,
    maxEntries,
    maxFileBytes: limits.maxFileBytes,
    maxTotalBytes: limits.maxTotalBytes,
    // Per entry: its header, a pax header and record block, and up to a block of padding.
    maxStreamBytes: limits.maxTotalBytes + maxEntries * 5 * BLOCK + 1024 * 1024,
    maxDepth: limits.maxDepth,
    maxPathBytes: limits.maxPathBytes,
  };
}

type State = "header" | "data" | "skip" | "ended";
type Pending = "entry" | "pax" | "global" | "longname";

/**
 * A push parser that judges a tar stream entry by entry, before anything is written. Every
 * rule failure throws at once, so a hostile archive costs at most the budget. Call `push`
 * with each decompressed chunk, then `finish` (which refuses a truncated archive).
 */
export class TarJudge {
  readonly entries: JudgedEntry[] = [];
  streamBytes = 0;
  private state: State = "header";
  private header = new Uint8Array(BLOCK);
  private headerFill = 0;
  private target: Uint8Array | null = null;
  private targetFill = 0;
  private pending: Pending = "entry";
  private skipLeft = 0;
  private paxPath: string | undefined;
  private paxSize: number | undefined;
  private longName: string | undefined;
  private files = 0;
  private totalFileBytes = 0;
  private readonly names: EntryNames;

  constructor(private readonly budget: TarBudget) {
    this.names = new EntryNames(budget);
  }

  get ended(): boolean {
    return this.state === "ended";
  }

  push(chunk: Uint8Array): void {
    this.streamBytes += chunk.length;
    let off = 0;
    while (off < chunk.length && !this.ended) {
      if (this.state === "header") {
        const n = Math.min(BLOCK - this.headerFill, chunk.length - off);
        this.header.set(chunk.subarray(off, off + n), this.headerFill);
        this.headerFill += n;
        off += n;
        if (this.headerFill === BLOCK) {
          this.headerFill = 0;
          this.onHeader(this.header);
        }
      } else if (this.state === "data") {
        const target = this.target as Uint8Array;
        const n = Math.min(target.length - this.targetFill, chunk.length - off);
        target.set(chunk.subarray(off, off + n), this.targetFill);
        this.targetFill += n;
        off += n;
        if (this.targetFill === target.length) this.onData();
      } else {
        const n = Math.min(this.skipLeft, chunk.length - off);
        this.skipLeft -= n;
        off += n;
        if (this.skipLeft === 0) this.state = "header";
      }
    }
    // After the end marker only zero padding may follow (a gzip stream is still drained to
    // its end so its CRC is checked). Anything else, such as a second archive appended or a
    // second gzip member, is refused: `tar -i` and other readers would extract entries that
    // gjc never judged, so a reviewer and gjc would see different bundles.
    if (this.ended && chunk.subarray(off).some((b) => b !== 0)) {
      throw invalid(
        "The archive holds data after its end-of-archive marker (an appended archive or gzip member); only zero padding may follow it.",
      );
    }
    if (this.streamBytes > this.budget.maxStreamBytes) {
      throw tooLarge(`The archive expands to more than ${formatBytes(this.budget.maxStreamBytes)}.`, {
        limit: "stream_bytes",
        streamBytes: this.streamBytes,
      });
    }
  }

  /** Refuses an archive that ended before its end-of-archive block or inside an entry. */
  finish(): JudgedEntry[] {
    if (this.state !== "ended") {
      throw sourceError(
        "invalid_archive",
        "The archive is truncated: it ends before its end-of-archive marker.",
        "Download or build the archive again.",
        { streamBytes: this.streamBytes },
      );
    }
    return this.entries;
  }

  private onHeader(block: Uint8Array): void {
    if (isZeroBlock(block)) {
      if (
        this.pending !== "entry" ||
        this.paxPath !== undefined ||
        this.paxSize !== undefined ||
        this.longName !== undefined
      ) {
        throw invalid("The archive ends right after an extended header, with no entry for it.");
      }
      this.state = "ended";
      return;
    }
    let raw;
    try {
      if (!checksumMatches(block))
        throw hostile("A tar header checksum does not match; the archive is corrupt or was tampered with.");
      raw = decodeHeader(block);
    } catch (error) {
      if (error instanceof HeaderError) throw invalid(`A tar header is malformed: ${error.message}.`);
      throw error;
    }
    const t = raw.typeflag;
    if (t === "x" || t === "g" || t === "L") {
      if (raw.size > MAX_META_BYTES)
        throw invalid(
          `An extended header of ${raw.size} bytes is larger than the ${formatBytes(MAX_META_BYTES)} we accept.`,
        );
      if (t === "L" && this.longName !== undefined) throw hostile("Two GNU long-name records precede one entry.");
      if (t === "x" && (this.paxPath !== undefined || this.paxSize !== undefined))
        throw hostile("Two pax headers precede one entry.");
      this.pending = t === "x" ? "pax" : t === "g" ? "global" : "longname";
      this.readInto(raw.size);
      return;
    }
    // Metadata records are not entries (at most two precede one; the stream budget bounds them).
    if (++this.entryCount > this.budget.maxEntries) {
      throw tooLarge(`The archive has more than ${this.budget.maxEntries} entries.`, { limit: "entries" });
    }
    if (t === "K")
      throw hostile(
        `The archive holds a link (GNU long link name before ${JSON.stringify(raw.name)}); links are refused.`,
      );

    const name = this.paxPath ?? this.longName ?? raw.name;
    const size = this.paxSize ?? raw.size;
    this.paxPath = undefined;
    this.paxSize = undefined;
    this.longName = undefined;

    const kind = entryKind(t, name);
    if (kind !== "file" && kind !== "dir")
      throw hostile(
        `The entry ${JSON.stringify(name)} is ${kind}; archives may hold only regular files and directories.`,
        { entry: name },
      );
    const verdict = judgeEntryName(name);
    if (!verdict.ok) throw hostile(`The entry name ${JSON.stringify(name)} ${verdict.reason}.`, { entry: name });
    if (kind === "dir" && size !== 0)
      throw invalid(`The directory entry ${JSON.stringify(name)} claims ${size} bytes of data.`);
    if (verdict.path === null) {
      if (kind !== "dir") throw hostile(`The archive root ${JSON.stringify(name)} is not a directory.`);
      this.state = "header";
      return;
    }
    const path = verdict.path;
    this.names.admit(path, kind);

    if (kind === "dir") {
      this.entries.push({ path, type: "dir", mode: 0o755 });
      this.state = "header";
      return;
    }
    if (++this.files > this.budget.maxFiles)
      throw tooLarge(`The archive has more than ${this.budget.maxFiles} files.`, { limit: "files" });
    if (size > this.budget.maxFileBytes) {
      throw tooLarge(
        `${path} is ${size} bytes, over the ${formatBytes(this.budget.maxFileBytes)} limit for one file.`,
        { limit: "file_bytes", entry: path },
      );
    }
    this.totalFileBytes += size;
    if (this.totalFileBytes > this.budget.maxTotalBytes) {
      throw tooLarge(`The archive's files add up to more than ${formatBytes(this.budget.maxTotalBytes)}.`, {
        limit: "total_bytes",
        streamBytes: this.streamBytes,
      });
    }
    const entry: JudgedEntry = { path, type: "file", mode: raw.mode & 0o111 ? 0o755 : 0o644 };
    this.entries.push(entry);
    this.pending = "entry";
    this.current = entry;
    this.readInto(size);
  }

  private entryCount = 0;
  private current: JudgedEntry | null = null;

  private readInto(size: number): void {
    this.target = new Uint8Array(size);
    this.targetFill = 0;
    if (size === 0) this.onData();
    else this.state = "data";
  }

  private onData(): void {
    const data = this.target as Uint8Array;
    this.target = null;
    try {
      if (this.pending === "entry") {
        (this.current as JudgedEntry).data = data;
        this.current = null;
      } else if (this.pending === "longname") {
        this.longName = cString(data, 0, data.length, "GNU long name");
      } else {
        const records = parsePaxRecords(data);
        if (this.pending === "global") {
          for (const key of ["path", "linkpath", "size"]) {
            if (records.has(key))
              throw hostile(`A global pax header sets ${key}; that would apply to every entry and is refused.`);
          }
        } else {
          this.paxPath = records.get("path");
          const size = records.get("size");
          if (size !== undefined) {
            if (!/^[0-9]+$/.test(size) || !Number.isSafeInteger(Number(size)))
              throw invalid(`A pax size record ${JSON.stringify(size)} is not a number.`);
            this.paxSize = Number(size);
          }
        }
      }
    } catch (error) {
      if (error instanceof HeaderError) throw invalid(`An extended header is malformed: ${error.message}.`);
      throw error;
    }
    this.pending = "entry";
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    this.skipLeft = pad;
    this.state = pad === 0 ? "header" : "skip";
  }
}

/**
 * The shape and name-collision rules every materialised source obeys (tar entries, git tree
 * entries): depth and path length, no duplicate, no two names equal under case folding or NFC,
 * no name that is both a file and a directory. One instance per source.
 */
export class EntryNames {
  /** collisionKey(prefix) → exact prefix, for every entry and every ancestor directory. */
  private seen = new Map<string, { exact: string; kind: "file" | "dir"; explicit: boolean }>();

  /** `topFolderSlack`: room for one top folder stripped later (archives packed as one folder). */
  constructor(
    private readonly budget: Pick<TarBudget, "maxDepth" | "maxPathBytes">,
    private readonly topFolderSlack = true,
  ) {}

  admit(path: string, kind: "file" | "dir"): void {
    this.checkShape(path, kind);
    this.register(path, kind);
  }

  /** Depth and path length, with room for one top folder that may be stripped later. */
  private checkShape(path: string, kind: "file" | "dir"): void {
    const segments = path.split("/").length;
    const depth = kind === "dir" ? segments : segments - 1;
    if (depth > this.budget.maxDepth + (this.topFolderSlack ? TOP_FOLDER_DEPTH_SLACK : 0)) {
      throw tooLarge(`${path} is nested deeper than ${this.budget.maxDepth} directories.`, {
        limit: "depth",
        entry: path,
      });
    }
    if (
      this.budget.maxPathBytes !== undefined &&
      Buffer.byteLength(path) > this.budget.maxPathBytes + (this.topFolderSlack ? TOP_FOLDER_PATH_SLACK : 0)
    ) {
      throw tooLarge(`The entry path ${path.slice(0, 80)}… is longer than ${this.budget.maxPathBytes} bytes.`, {
        limit: "path_bytes",
      });
    }
  }

  /**
   * Refuses a duplicate name, a name that collides with another under case folding or NFC,
   * and a file where a directory is implied (or the reverse). Ancestors count as directories.
   */
  private register(path: string, kind: "file" | "dir"): void {
    const parts = path.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join("/");
      const isSelf = i === parts.length;
      const k: "file" | "dir" = isSelf ? kind : "dir";
      const key = collisionKey(prefix);
      const prior = this.seen.get(key);
      if (prior === undefined) {
        this.seen.set(key, { exact: prefix, kind: k, explicit: isSelf });
        continue;
      }
      if (prior.exact !== prefix) {
        throw hostile(
          `The entries ${JSON.stringify(prior.exact)} and ${JSON.stringify(prefix)} differ only by letter case or Unicode normalization.`,
          { entry: path },
        );
      }
      if (prior.kind !== k)
        throw hostile(`${JSON.stringify(prefix)} appears both as a file and as a directory.`, { entry: path });
      if (isSelf) {
        if (prior.explicit)
          throw hostile(`The archive holds ${JSON.stringify(path)} twice; duplicate entries are refused.`, {
            entry: path,
          });
        prior.explicit = true;
        // A directory entry after files inside it is legal tar; a file cannot have children.
      }
    }
  }
}

function entryKind(t: string, name: string): "file" | "dir" | string {
  if (t === "0" || t === "7") return name.endsWith("/") ? "dir" : "file";
  if (t === "5") return "dir";
  if (t === "1") return "a hard link";
  if (t === "2") return "a symbolic link";
  if (t === "3") return "a character device";
  if (t === "4") return "a block device";
  if (t === "6") return "a FIFO";
  return `an unsupported entry type ${JSON.stringify(t)}`;
}

function hostile(message: string, details?: unknown) {
  return sourceError(
    "security_policy",
    message,
    "The archive is refused as a whole; nothing was written. Rebuild it with only regular files and directories under safe relative names.",
    details,
  );
}

function invalid(message: string) {
  return sourceError("invalid_archive", message, "Download or build the archive again; nothing was written.");
}

function tooLarge(message: string, details?: unknown) {
  return sourceError(
    "source_too_large",
    message,
    "The archive exceeds the bundle limits; nothing was written. Keep large or generated files out of the bundle.",
    details,
  );
}
