import { join } from "node:path";
import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { isGjcError } from "../../core/errors.ts";
import { sha256Hex } from "../../bundle/hash.ts";
import { GJC_LIMITS, type BundleLimits } from "../../bundle/limits.ts";
import { collisionKey } from "../../bundle/names.ts";
import { CLEAN_RELATIVE_PATH, relativePathProblem, walkInside } from "../../bundle/path-safety.ts";
import { readRegularFile } from "../../bundle/read-file.ts";
import { formatBytes } from "../../bundle/collect.ts";
import type { PlannedFile } from "../types.ts";
import { GJC_MANIFEST } from "../detect.ts";
import { quote } from "./fields.ts";

export interface DeclaredFile {
  path: string;
  sha256: string;
  bytes: number;
  mode: number;
  /** Exactly the bytes that were hashed; install copies these, never a second read. */
  data: Uint8Array;
}

/** What a declaration is called in messages, or a function that builds that name on demand. */
export type DeclarationName = string | (() => string);

const named = (label: DeclarationName): string => (typeof label === "string" ? label : label());

const PATH_RULES = 'Declared paths are relative to the bundle root, use "/" as the separator and have no ".", ".." or empty segments.';

/**
 * Reads the files a GJC manifest declares, and nothing else (DESIGN item 14): each path is
 * checked lexically, walked one component at a time without following symlinks, opened
 * with O_NOFOLLOW, and must be a regular file inside the root within the GJC budgets. A file
 * named twice is read once. Every refusal is a diagnostic pointing at the declaration.
 */
export class DeclaredFileReader {
  private readonly files = new Map<string, DeclaredFile>();
  /** The same files in the order they were read (an index loop needs no Map iterator). */
  private readonly order: DeclaredFile[] = [];
  private readonly refused = new Set<string>();
  private readonly keys = new Map<string, string>();
  private totalBytes = 0;
  private exhausted = false;
  /** `join(rootDir, rel)` is `prefix + rel` for a path that passed the lexical rules. */
  private readonly prefix: string;

  constructor(
    readonly rootDir: string,
    private readonly sink: DiagnosticSink,
    private readonly limits: BundleLimits = GJC_LIMITS,
  ) {
    // join normalizes the root the same way whatever plain names follow it, so joining one
    // placeholder name once gives the prefix every declared path is appended to.
    this.prefix = join(rootDir, "_").slice(0, -1);
  }

  /** Every file read so far: the manifest first, then by path in code-unit order (not locale order). */
  planned(): PlannedFile[] {
    // Loops rather than spread/filter/map: validate calls this once per process, where each
    // JS-implemented array builtin costs tens of µs on its first call.
    // The default sort compares strings by UTF-16 code units, the order we want, without a
    // comparator call per comparison; paths are unique, so the order is total.
    const paths: string[] = [];
    for (let i = 0; i < this.order.length; i++) if (this.order[i].path !== GJC_MANIFEST) paths.push(this.order[i].path);
    paths.sort();
    if (this.files.has(GJC_MANIFEST)) paths.unshift(GJC_MANIFEST);
    const out: PlannedFile[] = [];
    for (let i = 0; i < paths.length; i++) {
      const f = this.files.get(paths[i])!;
      out.push({ path: f.path, sha256: f.sha256, bytes: f.bytes, mode: f.mode });
    }
    return out;
  }

  contents(): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    for (const f of this.planned()) out.set(f.path, this.files.get(f.path)!.data);
    return out;
  }

  /**
   * Reads one declared path; `at` is the JSON pointer of the declaration, `label` names it in
   * messages (a function when building the name costs something: it is called only to report).
   * Undefined when the path is refused (a diagnostic says why) or a budget ran out.
   *
   * One method on purpose: it runs once per declared file, and each function that does got
   * JIT-compiled during a single validate run, so the checks are not split into helpers.
   */
  read(rel: string, at: string, label: DeclarationName): DeclaredFile | undefined {
    const known = this.files.get(rel);
    if (known !== undefined) return known;
    if (this.exhausted || this.refused.has(rel)) return undefined;
    // One native regex test for the usual clean path; the reason is worked out only for a refusal.
    const lexical = typeof rel === "string" && CLEAN_RELATIVE_PATH.test(rel) ? undefined : relativePathProblem(rel);
    if (lexical) {
      this.sink.error("missing_file", at, `${named(label)} names the path ${quote(rel)}, which ${lexical}; it cannot name a file inside the bundle.`, PATH_RULES);
      return this.refuse(rel);
    }
    const { maxPathBytes, maxDepth, maxFileBytes, maxFiles, maxTotalBytes } = this.limits;
    // UTF-8 needs at most 3 bytes per UTF-16 unit, and a path without empty segments has at
    // least two characters per "/": the exact counts are needed only for long paths.
    if (maxPathBytes !== undefined && rel.length * 3 > maxPathBytes && Buffer.byteLength(rel) > maxPathBytes) {
      this.sink.error("security_policy", at, `${named(label)} names the path ${quote(rel)}, which is longer than ${maxPathBytes} bytes.`, "Use a shorter path.");
      return this.refuse(rel);
    }
    if (rel.length > 2 * maxDepth + 1 && rel.split("/").length - 1 > maxDepth) {
      this.sink.error("security_policy", at, `${named(label)} names the path ${quote(rel)}, which is nested deeper than ${maxDepth} directories.`, "Flatten the bundle layout.");
      return this.refuse(rel);
    }
    const key = collisionKey(rel);
    const twin = this.keys.get(key);
    if (twin !== undefined && twin !== rel) {
      this.sink.error("invalid_manifest", at, `${named(label)} names ${quote(rel)}, and another declaration names ${quote(twin)}; they differ only by letter case or Unicode normalization.`, "Case-insensitive file systems (macOS, Windows) would merge them; rename one.");
      return this.refuse(rel);
    }
    const walk = walkInside(this.rootDir, rel, "file");
    if (!walk.ok) {
      switch (walk.reason) {
        case "missing":
          this.sink.error("missing_file", at, `${named(label)} names ${quote(rel)}, which does not exist in the bundle.`, "Check the path; it is relative to the folder holding gajae-plugin.json.");
          break;
        case "symlink":
          this.sink.error("security_policy", at, `${named(label)} names ${quote(rel)}, which goes through the symbolic link ${quote(walk.at)}; links are never followed.`, "Ship the file itself inside the bundle, not a link to it.");
          break;
        case "special":
          this.sink.error("security_policy", at, `${named(label)} names ${quote(rel)}, which is a FIFO, socket or device, not a regular file.`, "Declare a regular file.");
          break;
        default:
          this.sink.error("missing_file", at, `${named(label)} names ${quote(rel)}, which is a directory, not a file.`, "Declare the file itself.");
      }
      return this.refuse(rel);
    }
    if (this.files.size + 1 > maxFiles) {
      this.sink.error("security_policy", at, `The bundle declares more than ${maxFiles} files.`, "Split the bundle.");
      this.exhausted = true;
      return this.refuse(rel);
    }
    let opened;
    try {
      opened = readRegularFile(this.prefix + rel, maxFileBytes, rel);
    } catch (error) {
      if (!isGjcError(error)) throw error;
      const code =
        error.code === "missing_file" ? "missing_file" : error.code === "file_changed" ? "hash_mismatch" : error.code === "unreadable_file" ? "missing_file" : "security_policy";
      const message = error.code === "file_too_large" ? `${named(label)} names ${quote(rel)}, which is larger than the ${formatBytes(maxFileBytes)} limit for one file.` : `${named(label)}: ${error.message}`;
      this.sink.error(code, at, message, error.hint);
      return this.refuse(rel);
    }
    if (this.totalBytes + opened.size > maxTotalBytes) {
      this.sink.error("security_policy", at, `The declared files add up to more than the ${formatBytes(maxTotalBytes)} limit for a bundle.`, "Keep large assets out of the bundle.");
      this.exhausted = true;
      return this.refuse(rel);
    }
    this.totalBytes += opened.size;
    this.keys.set(key, rel);
    const file: DeclaredFile = { path: rel, sha256: sha256Hex(opened.bytes), bytes: opened.size, mode: opened.mode, data: opened.bytes };
    this.files.set(rel, file);
    this.order.push(file);
    return file;
  }

  /** Remembers a refused path, so a second declaration of it is not reported twice (called only to refuse). */
  private refuse(rel: string): undefined {
    this.refused.add(rel);
    return undefined;
  }
}
