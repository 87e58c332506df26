import type { BundleLimits } from "../bundle/limits.ts";
import type { Context } from "../core/context.ts";
import { sourceError } from "./errors.ts";
import { runGit } from "./run-git.ts";
import { judgeEntryName } from "./tar/entry-name.ts";
import { EntryNames, type JudgedEntry } from "./tar/judge.ts";

/**
 * A commit's files read straight from the object store of a bare repository, never checked
 * out (issue #12, class 6): a checkout runs the filter drivers (smudge/clean/process) that the
 * repository's `.gitattributes` selects from the user's config, and a work tree is what hooks
 * and fsmonitor act on. `ls-tree` and `cat-file --batch` apply no filter and start no program.
 * Every entry is judged by the same name and shape rules as an archive entry before a byte is
 * written, and the blobs are held in memory: the bytes written are the bytes git returned.
 */

// An ls-tree line is "<mode> <type> <oid> <size>\t<path>"; the path is at most the budget's
// bytes, so this bounds the listing before it is parsed.
const LS_TREE_LINE_OVERHEAD = 128;
const CAT_FILE_HEADER_BYTES = 128;
const MAX_LINK_TARGET_BYTES = 4096;

interface TreeEntry {
  path: string;
  mode: string;
  type: string;
  oid: string;
  size: number;
}

export async function readCommitTree(
  ctx: Context,
  gitDir: string,
  sha: string,
  subpath: string | undefined,
  limits: BundleLimits,
  timeoutMs: number,
): Promise<JudgedEntry[]> {
  const maxEntries = limits.maxFiles * 2 + 16;
  const maxPath = limits.maxPathBytes ?? 4096;
  // Literal pathspec: a subpath is a path, never a glob or magic.
  const listing = await runGit(
    ctx,
    [
      "--literal-pathspecs",
      "ls-tree",
      "-r",
      "-z",
      "-l",
      "--full-tree",
      sha,
      ...(subpath !== undefined ? ["--", subpath] : []),
    ],
    {
      cwd: gitDir,
      timeoutMs,
      action: "ls-tree",
      maxStdoutBytes: maxEntries * (maxPath + LS_TREE_LINE_OVERHEAD),
    },
  );
  const entries = parseListing(listing.bytes);
  const judged = judgeTree(entries, limits);
  const wanted = judged.filter((j) => j.entry.type === "blob");
  if (wanted.length > 0) {
    let expected = 0;
    for (const w of wanted) expected += w.entry.size + CAT_FILE_HEADER_BYTES;
    const input = new TextEncoder().encode(`${wanted.map((w) => w.entry.oid).join("\n")}\n`);
    const out = await runGit(ctx, ["cat-file", "--batch"], {
      cwd: gitDir,
      timeoutMs,
      action: "cat-file",
      input,
      maxStdoutBytes: expected,
    });
    fillBlobs(out.bytes, wanted);
  }
  return judged.map((j) => j.judged);
}

function parseListing(bytes: Uint8Array): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  for (const record of text.split("\0")) {
    if (record === "") continue;
    const tab = record.indexOf("\t");
    const m = /^([0-7]{6}) (blob|tree|commit) ([0-9a-f]{40,64}) +(-|[0-9]+)$/.exec(
      tab === -1 ? "" : record.slice(0, tab),
    );
    if (!m)
      throw sourceError(
        "source_unreachable",
        "git ls-tree answered in a form gjc does not understand.",
        "Check your git version (2.20 or newer is needed).",
      );
    entries.push({
      mode: m[1],
      type: m[2],
      oid: m[3],
      size: m[4] === "-" ? 0 : Number(m[4]),
      path: record.slice(tab + 1),
    });
  }
  return entries;
}

function judgeTree(entries: TreeEntry[], limits: BundleLimits): { entry: TreeEntry; judged: JudgedEntry }[] {
  const names = new EntryNames({ maxDepth: limits.maxDepth, maxPathBytes: limits.maxPathBytes }, false);
  const out: { entry: TreeEntry; judged: JudgedEntry }[] = [];
  let files = 0;
  let total = 0;
  for (const e of entries) {
    const verdict = judgeEntryName(e.path);
    if (!verdict.ok || verdict.path === null)
      throw hostile(
        `The repository holds ${JSON.stringify(e.path)}, whose name ${verdict.ok ? "is the root" : verdict.reason}.`,
        e.path,
      );
    const path = verdict.path;
    if (e.type === "commit") {
      // A submodule: an empty directory, as a checkout without --recurse-submodules leaves it.
      names.admit(path, "dir");
      out.push({ entry: e, judged: { path, type: "dir", mode: 0o755 } });
      continue;
    }
    if (e.type !== "blob")
      throw hostile(`The repository entry ${JSON.stringify(e.path)} has the unexpected type ${e.type}.`, e.path);
    names.admit(path, "file");
    if (++files > limits.maxFiles)
      throw tooLarge(`The repository has more than ${limits.maxFiles} files at this path.`, { limit: "files" });
    if (e.size > limits.maxFileBytes)
      throw tooLarge(`${path} is ${e.size} bytes, over the ${limits.maxFileBytes}-byte limit for one file.`, {
        limit: "file_bytes",
        entry: path,
      });
    total += e.size;
    if (total > limits.maxTotalBytes)
      throw tooLarge(`The repository's files add up to more than ${limits.maxTotalBytes} bytes.`, {
        limit: "total_bytes",
      });
    if (e.mode === "120000") {
      if (e.size > MAX_LINK_TARGET_BYTES)
        throw hostile(`The symbolic link ${JSON.stringify(path)} has a ${e.size}-byte target.`, path);
      out.push({ entry: e, judged: { path, type: "symlink", mode: 0o777 } });
    } else if (e.mode === "100644" || e.mode === "100755") {
      out.push({ entry: e, judged: { path, type: "file", mode: e.mode === "100755" ? 0o755 : 0o644 } });
    } else {
      throw hostile(`The repository entry ${JSON.stringify(path)} has the unsupported mode ${e.mode}.`, path);
    }
  }
  return out;
}

/** Parses `cat-file --batch` output: "<oid> blob <size>\n<bytes>\n" per object, in request order. */
function fillBlobs(bytes: Uint8Array, wanted: { entry: TreeEntry; judged: JudgedEntry }[]): void {
  let off = 0;
  const decoder = new TextDecoder();
  for (const w of wanted) {
    const nl = bytes.indexOf(0x0a, off);
    const header = nl === -1 ? "" : decoder.decode(bytes.subarray(off, nl));
    const m = /^([0-9a-f]{40,64}) blob ([0-9]+)$/.exec(header);
    if (!m || m[1] !== w.entry.oid || Number(m[2]) !== w.entry.size || bytes[nl + 1 + w.entry.size] !== 0x0a) {
      throw sourceError(
        "source_unreachable",
        `git cat-file did not return the blob of ${w.judged.path} as listed.`,
        "The repository may be corrupt; fetch it again.",
      );
    }
    const data = bytes.slice(nl + 1, nl + 1 + w.entry.size);
    off = nl + 2 + w.entry.size;
    if (w.judged.type === "symlink") {
      const target = decoder.decode(data);
      if (target === "" || target.includes("\0"))
        throw hostile(`The symbolic link ${JSON.stringify(w.judged.path)} has an impossible target.`, w.judged.path);
      w.judged.linkTarget = target;
    } else w.judged.data = data;
  }
}

function hostile(message: string, entry: string) {
  return sourceError("security_policy", message, "The repository is refused as a whole; nothing was written.", {
    entry,
  });
}

function tooLarge(message: string, details: unknown) {
  return sourceError(
    "source_too_large",
    message,
    "The repository exceeds the bundle limits; nothing was written. Point at a smaller subpath or keep large files out.",
    details,
  );
}
