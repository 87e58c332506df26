import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sourceError } from "./errors.ts";
import { downloadArchive, downloadOptional } from "./download.ts";
import { makeScratch } from "./scratch.ts";
import { archiveByteBudget, judgeArchive } from "./tar/read-archive.ts";
import { writeEntries } from "./tar/write-entries.ts";
import type { FetchOptions } from "./types.ts";

export interface ExtractedTarball {
  scratch: string;
  dir: string;
  sha256: string;
  /** https archives: the detached signature published beside it (`<url>.sig`), if any. */
  signature?: string;
}

/** An armored SSHSIG is well under 2 KiB; a larger answer is not a signature. */
const MAX_SIGNATURE_BYTES = 64 * 1024;

/** Reads the archive bytes (local file or https), judges every entry, and only then writes. */
export async function fetchTarball(
  location: { file: string } | { url: string },
  opts: FetchOptions,
): Promise<ExtractedTarball> {
  if (opts.manifestNames.length === 0) throw new Error("fetchTarball needs manifestNames to find the bundle root");
  const budget = archiveByteBudget(opts.limits);
  const bytes =
    "file" in location ? readLocalArchive(location.file, budget) : await downloadArchive(location.url, budget, opts);
  const judged = await judgeArchive(bytes, opts.limits, opts.manifestNames, opts.expectedSha256);
  const signature =
    "url" in location ? await downloadOptional(`${location.url}.sig`, MAX_SIGNATURE_BYTES, opts) : undefined;
  const scratch = makeScratch(opts.scratchRoot);
  try {
    writeEntries(scratch, judged.entries);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return {
    scratch,
    dir: judged.root === "" ? scratch : join(scratch, judged.root),
    sha256: judged.sha256,
    ...(signature ? { signature: new TextDecoder().decode(signature) } : {}),
  };
}

/** The absolute path a local archive is recorded under (links resolved, so the identity is stable). */
export function canonicalArchivePath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The user's own archive file: following a link to it is fine (they chose it), but it must be
 * a regular file (a FIFO would block us, O_NONBLOCK keeps the open from hanging) within budget.
 */
function readLocalArchive(path: string, budget: number): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw sourceError(
      "source_unreachable",
      `The archive ${path} cannot be read (${code ?? "error"}).`,
      code === "ENOENT" ? "Check the path." : "Check the file's permissions.",
    );
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw sourceError(
        "invalid_source",
        `${path} is not a regular file.`,
        "Give the path of a .tgz, .tar.gz or .tar file.",
      );
    if (st.size > budget)
      throw sourceError(
        "source_too_large",
        `The archive ${path} is ${st.size} bytes, over the ${budget}-byte budget.`,
        "Keep large or generated files out of the bundle.",
        { limit: "archive_bytes" },
      );
    const bytes = new Uint8Array(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, bytes, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    if (off !== st.size)
      throw sourceError(
        "source_unreachable",
        `The archive ${path} changed while it was read.`,
        "Run the command again once nothing is writing it.",
      );
    return bytes;
  } finally {
    closeSync(fd);
  }
}
