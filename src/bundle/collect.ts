import { lstatSync, readdirSync, type Dirent } from "node:fs";
import { DiagnosticSink, type Diagnostic } from "../core/diagnostics.ts";
import { isGjcError } from "../core/errors.ts";
import { sha256Hex } from "./hash.ts";
import type { BundleLimits } from "./limits.ts";
import { collisionKey, hasControlChars, isGitMarker, SIGNATURE_FILE } from "./names.ts";
import { closeDir, openChildDir, openRootDir, readFileIn, type DirHandle } from "./read-file.ts";

export interface CollectedFile {
  /** Bundle-relative POSIX path. */
  path: string;
  size: number;
  mode: number;
  sha256: string;
}

export interface Collection {
  files: CollectedFile[];
  totalBytes: number;
  /** Symlinks seen and not copied (bundle-relative). */
  skippedLinks: string[];
  diagnostics: Diagnostic[];
  /** True when a budget stopped the walk: the file list is incomplete. */
  aborted: boolean;
  /** File bytes, kept only when asked for (install copies exactly what was hashed). */
  contents?: Map<string, Uint8Array>;
}

export interface CollectOptions {
  keepContents?: boolean;
}

class BudgetExceeded extends Error {}

/**
 * Walks a bundle with lstat semantics and hashes every regular file. Symlinks are never
 * followed or copied; FIFOs, sockets and devices are refused without being opened; names
 * with control characters or that collide under case folding / NFC are refused. A budget
 * overrun stops the walk at once, so a hostile tree costs no more than the budget.
 * Directories are opened one inside the other (src/bundle/read-file.ts, DirHandle), so a
 * directory or file swapped for a link during the walk cannot redirect a read outside the
 * root: the swap is reported (`file_changed`) and the bundle is refused.
 */
export function collectBundle(root: string, limits: BundleLimits, options: CollectOptions = {}): Collection {
  const sink = new DiagnosticSink();
  const files: CollectedFile[] = [];
  const skippedLinks: string[] = [];
  const contents = options.keepContents ? new Map<string, Uint8Array>() : undefined;
  // Without keepContents every file is read into one reused buffer (hashed, then dropped).
  const scratch = contents ? undefined : { buffer: new Uint8Array(64 * 1024) };
  let totalBytes = 0;
  let aborted = false;

  const walk = (dir: DirHandle, relDir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir.base, { withFileTypes: true });
    } catch (error) {
      sink.error(
        "unreadable_directory",
        relDir || ".",
        `Directory ${relDir || "."} could not be read (${(error as NodeJS.ErrnoException).code}).`,
      );
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const seen = new Map<string, string>();
    for (const entry of entries) {
      const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
      if ((entry.isDirectory() && limits.skipDirs.has(entry.name)) || isGitMarker(entry.name)) continue;
      if (relDir === "" && entry.name === SIGNATURE_FILE) continue;
      if (hasControlChars(entry.name)) {
        sink.error(
          "unsafe_file_name",
          JSON.stringify(rel),
          `The name ${JSON.stringify(rel)} contains a control character.`,
          "Rename the file; control characters are refused in bundle paths.",
        );
        continue;
      }
      // A name that is not UTF-8 reads back with U+FFFD in place of its bytes: opening that
      // string would reach another file (or none), so the walk could not say which bytes it judged.
      if (entry.name.includes("\uFFFD")) {
        sink.error(
          "unsafe_file_name",
          JSON.stringify(rel),
          `The name ${JSON.stringify(rel)} is not valid UTF-8 (or holds U+FFFD).`,
          "Rename the file to valid UTF-8.",
        );
        continue;
      }
      const key = collisionKey(entry.name);
      const prior = seen.get(key);
      if (prior !== undefined) {
        sink.error(
          "name_collision",
          rel,
          `${rel} and ${relDir === "" ? prior : `${relDir}/${prior}`} differ only by letter case or Unicode normalization.`,
          "Case-insensitive file systems (macOS, Windows) would merge them; rename one.",
        );
        continue;
      }
      seen.set(key, entry.name);
      if (limits.maxPathBytes !== undefined && Buffer.byteLength(rel) > limits.maxPathBytes) {
        sink.error("path_too_long", rel, `The path ${rel} is longer than ${limits.maxPathBytes} bytes.`);
        continue;
      }
      let kind = direntKind(entry);
      if (kind === "unknown") kind = lstatKind(`${dir.base}/${entry.name}`);
      if (kind === "link") {
        skippedLinks.push(rel);
        continue;
      }
      if (kind === "dir") {
        if (depth + 1 > limits.maxDepth) {
          sink.error(
            "bundle_too_deep",
            rel,
            `${rel} is nested ${depth + 1} directories deep; the limit is ${limits.maxDepth}.`,
            "Flatten the bundle layout.",
          );
          throw new BudgetExceeded();
        }
        let child: DirHandle;
        try {
          child = openChildDir(dir, entry.name, rel);
        } catch (error) {
          if (!isGjcError(error)) throw error;
          sink.error(error.code, rel, error.message, error.hint);
          continue;
        }
        try {
          walk(child, rel, depth + 1);
        } finally {
          closeDir(child);
        }
        continue;
      }
      if (kind === "special") {
        sink.error(
          "special_file",
          rel,
          `${rel} is a FIFO, socket or device; bundles may hold only regular files and directories.`,
          "Remove it from the bundle.",
        );
        continue;
      }
      if (files.length + 1 > limits.maxFiles) {
        sink.error(
          "bundle_too_many_files",
          rel,
          `The bundle has more than ${limits.maxFiles} files.`,
          "Remove generated or vendored files from the bundle.",
        );
        throw new BudgetExceeded();
      }
      let opened;
      try {
        opened = readFileIn(dir, entry.name, limits.maxFileBytes, rel, scratch);
      } catch (error) {
        if (!isGjcError(error)) throw error;
        if (error.code === "file_too_large") {
          sink.error(
            "file_too_large",
            rel,
            `${rel} is larger than the ${formatBytes(limits.maxFileBytes)} limit for one file.`,
            "Keep large assets out of the bundle.",
          );
          throw new BudgetExceeded();
        }
        sink.error(error.code, rel, error.message, error.hint);
        continue;
      }
      totalBytes += opened.size;
      if (totalBytes > limits.maxTotalBytes) {
        sink.error(
          "bundle_too_large",
          rel,
          `The bundle is larger than the ${formatBytes(limits.maxTotalBytes)} limit.`,
          "Keep large assets out of the bundle.",
        );
        throw new BudgetExceeded();
      }
      files.push({ path: rel, size: opened.size, mode: opened.mode, sha256: sha256Hex(opened.bytes) });
      contents?.set(rel, opened.bytes);
    }
  };

  let rootDir: DirHandle | undefined;
  try {
    rootDir = openRootDir(root);
  } catch (error) {
    if (!isGjcError(error)) throw error;
    sink.error("unreadable_directory", ".", `Directory . could not be read (${error.message}).`);
  }
  try {
    if (rootDir) walk(rootDir, "", 0);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    aborted = true;
  } finally {
    if (rootDir) closeDir(rootDir);
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, totalBytes, skippedLinks, diagnostics: sink.items, aborted, contents };
}

type Kind = "file" | "dir" | "link" | "special" | "unknown";

function direntKind(d: Dirent): Kind {
  if (d.isSymbolicLink()) return "link";
  if (d.isDirectory()) return "dir";
  if (d.isFile()) return "file";
  if (d.isFIFO() || d.isSocket() || d.isCharacterDevice() || d.isBlockDevice()) return "special";
  return "unknown";
}

function lstatKind(abs: string): Kind {
  const st = lstatSync(abs);
  if (st.isSymbolicLink()) return "link";
  if (st.isDirectory()) return "dir";
  if (st.isFile()) return "file";
  return "special";
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
