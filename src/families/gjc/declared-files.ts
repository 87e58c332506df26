import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { isGitMarker, SIGNATURE_FILE } from "../../bundle/names.ts";
import { isGjcError, type GjcError } from "../../core/errors.ts";
import { GJC_LIMITS, type BundleLimits } from "../../bundle/limits.ts";
import { relativePathProblem, walkInside, type WalkResult } from "../../bundle/path-safety.ts";
import { AnchoredTree } from "../../bundle/read-file.ts";
import { formatBytes } from "../../bundle/collect.ts";
import { sha256Hex } from "../../bundle/hash.ts";
import { collisionKey } from "../../bundle/names.ts";
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

/** Why read() refused a path; refuse() turns it into the diagnostic. */
type Refusal =
  | { kind: "lexical"; lexical: string }
  | { kind: "long" | "deep" | "too_many" | "too_big" }
  | { kind: "twin"; twin: string }
  | { kind: "walk"; walk: Extract<WalkResult, { ok: false }> }
  | { kind: "open"; error: GjcError };

const PATH_RULES =
  'Declared paths are relative to the bundle root, use "/" as the separator and have no ".", ".." or empty segments.';

/**
 * Reads the files a GJC manifest declares, and nothing else (DESIGN item 14): each path is
 * checked lexically, walked one component at a time without following symlinks, opened
 * with O_NOFOLLOW, and must be a regular file inside the root within the GJC budgets. A file
 * named twice is read once. Every refusal is a diagnostic pointing at the declaration.
 */
export class DeclaredFileReader implements Disposable {
  private readonly files = new Map<string, DeclaredFile>();
  private readonly refused = new Set<string>();
  private readonly keys = new Map<string, string>();
  private totalBytes = 0;
  private exhausted = false;
  /** The bundle's directories, each opened once for all the files read in it. */
  private readonly tree: AnchoredTree;

  constructor(
    readonly rootDir: string,
    private readonly sink: DiagnosticSink,
    private readonly limits: BundleLimits = GJC_LIMITS,
  ) {
    this.tree = new AnchoredTree(rootDir);
  }

  /** Closes the directories kept open for reading; the files read stay available. */
  [Symbol.dispose](): void {
    this.tree.close();
  }

  /** Every file read so far: the manifest first, then by path in code-unit order (not locale order). */
  planned(): PlannedFile[] {
    // The default sort compares strings by UTF-16 code units, the order we want; paths are unique.
    const paths = [...this.files.keys()].filter((p) => p !== GJC_MANIFEST).sort();
    if (this.files.has(GJC_MANIFEST)) paths.unshift(GJC_MANIFEST);
    return paths.map((p) => {
      const { path, sha256, bytes, mode } = this.files.get(p)!;
      return { path, sha256, bytes, mode };
    });
  }

  contents(): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    for (const f of this.planned()) out.set(f.path, this.files.get(f.path)!.data);
    return out;
  }

  /**
   * Reads one declared path; `at` is the JSON pointer of the declaration, `label` names it in
   * messages (or a function building the name, called only to report). Undefined when the
   * path is refused (refuse() says why) or a budget ran out.
   */
  read(rel: string, at: string, label: DeclarationName): DeclaredFile | undefined {
    const known = this.files.get(rel);
    if (known !== undefined) return known;
    if (this.exhausted || this.refused.has(rel)) return undefined;
    const gitMarker = rel.split("/").find(isGitMarker);
    const lexical =
      relativePathProblem(rel) ??
      (gitMarker !== undefined
        ? `has a "${gitMarker}" segment (git's repository marker is never installed)`
        : undefined) ??
      // The signature signs the bundle's digest, so it can never be one of the files digested.
      (rel === SIGNATURE_FILE ? "is the bundle's detached signature, which is never part of the bundle" : undefined);
    if (lexical) return this.refuse({ kind: "lexical", lexical }, rel, at, label);
    const { maxPathBytes, maxDepth, maxFileBytes, maxFiles, maxTotalBytes } = this.limits;
    if (maxPathBytes !== undefined && Buffer.byteLength(rel) > maxPathBytes)
      return this.refuse({ kind: "long" }, rel, at, label);
    if (rel.split("/").length - 1 > maxDepth) return this.refuse({ kind: "deep" }, rel, at, label);
    const key = collisionKey(rel);
    const twin = this.keys.get(key);
    if (twin !== undefined && twin !== rel) return this.refuse({ kind: "twin", twin }, rel, at, label);
    const walk = walkInside(this.rootDir, rel, "file");
    if (!walk.ok) return this.refuse({ kind: "walk", walk }, rel, at, label);
    if (this.files.size + 1 > maxFiles) return this.refuse({ kind: "too_many" }, rel, at, label);
    let opened;
    try {
      // Anchored component by component: a parent swapped for a link after walkInside judged
      // it cannot redirect this read (src/bundle/read-file.ts).
      opened = this.tree.read(rel, maxFileBytes, rel);
    } catch (error) {
      if (!isGjcError(error)) throw error;
      return this.refuse({ kind: "open", error }, rel, at, label);
    }
    if (this.totalBytes + opened.size > maxTotalBytes) return this.refuse({ kind: "too_big" }, rel, at, label);
    this.totalBytes += opened.size;
    this.keys.set(key, rel);
    const file: DeclaredFile = {
      path: rel,
      sha256: sha256Hex(opened.bytes),
      bytes: opened.size,
      mode: opened.mode,
      data: opened.bytes,
    };
    this.files.set(rel, file);
    return file;
  }

  /**
   * Reports why a declared path is refused, and remembers it so a second declaration of the
   * path is not reported twice; a spent budget stops every later read.
   */
  private refuse(why: Refusal, rel: string, at: string, label: DeclarationName): undefined {
    this.refused.add(rel);
    const what = named(label);
    const { maxPathBytes, maxDepth, maxFileBytes, maxFiles, maxTotalBytes } = this.limits;
    switch (why.kind) {
      case "lexical":
        this.sink.error(
          "missing_file",
          at,
          `${what} names the path ${quote(rel)}, which ${why.lexical}; it cannot name a file inside the bundle.`,
          PATH_RULES,
        );
        break;
      case "long":
        this.sink.error(
          "security_policy",
          at,
          `${what} names the path ${quote(rel)}, which is longer than ${maxPathBytes} bytes.`,
          "Use a shorter path.",
        );
        break;
      case "deep":
        this.sink.error(
          "security_policy",
          at,
          `${what} names the path ${quote(rel)}, which is nested deeper than ${maxDepth} directories.`,
          "Flatten the bundle layout.",
        );
        break;
      case "twin":
        this.sink.error(
          "invalid_manifest",
          at,
          `${what} names ${quote(rel)}, and another declaration names ${quote(why.twin)}; they differ only by letter case or Unicode normalization.`,
          "Case-insensitive file systems (macOS, Windows) would merge them; rename one.",
        );
        break;
      case "walk":
        switch (why.walk.reason) {
          case "missing":
            this.sink.error(
              "missing_file",
              at,
              `${what} names ${quote(rel)}, which does not exist in the bundle.`,
              "Check the path; it is relative to the folder holding gajae-plugin.json.",
            );
            break;
          case "symlink":
            this.sink.error(
              "security_policy",
              at,
              `${what} names ${quote(rel)}, which goes through the symbolic link ${quote(why.walk.at)}; links are never followed.`,
              "Ship the file itself inside the bundle, not a link to it.",
            );
            break;
          case "special":
            this.sink.error(
              "security_policy",
              at,
              `${what} names ${quote(rel)}, which is a FIFO, socket or device, not a regular file.`,
              "Declare a regular file.",
            );
            break;
          default:
            this.sink.error(
              "missing_file",
              at,
              `${what} names ${quote(rel)}, which is a directory, not a file.`,
              "Declare the file itself.",
            );
        }
        break;
      case "too_many":
        this.sink.error("security_policy", at, `The bundle declares more than ${maxFiles} files.`, "Split the bundle.");
        this.exhausted = true;
        break;
      case "open": {
        const { error } = why;
        const code =
          error.code === "missing_file"
            ? "missing_file"
            : error.code === "file_changed"
              ? "hash_mismatch"
              : error.code === "unreadable_file"
                ? "missing_file"
                : "security_policy";
        const message =
          error.code === "file_too_large"
            ? `${what} names ${quote(rel)}, which is larger than the ${formatBytes(maxFileBytes)} limit for one file.`
            : `${what}: ${error.message}`;
        this.sink.error(code, at, message, error.hint);
        break;
      }
      case "too_big":
        this.sink.error(
          "security_policy",
          at,
          `The declared files add up to more than the ${formatBytes(maxTotalBytes)} limit for a bundle.`,
          "Keep large assets out of the bundle.",
        );
        this.exhausted = true;
        break;
    }
    return undefined;
  }
}
