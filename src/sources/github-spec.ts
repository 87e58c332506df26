import { hasControlChars } from "../bundle/names.ts";
import { relativePathProblem } from "../bundle/path-safety.ts";
import { sourceError } from "./errors.ts";
import { isFullSha } from "./git-ref.ts";

/** GitHub forms accepted for C2 (c2-notes §5.2), judged before anything touches the network. */
export interface GithubTarget {
  owner: string;
  repo: string;
  ref?: string;
  pin?: string;
  subpath?: string;
}

const PART = /^[A-Za-z0-9._-]+$/;
const HINT =
  "Use owner/repo, https://github.com/<owner>/<repo>, or https://github.com/<owner>/<repo>/tree/<ref>/<path>.";
/** Files a `/blob/<ref>/<dir>/<file>` link may point at; the link then selects `<dir>`. */
const BLOB_FILES = new Set(["SKILL.md", "plugin.json", "gajae-plugin.json"]);

export function looksLikeGithubUrl(spec: string): boolean {
  return /^https?:\/\/(?:[^/?#]*@)?(?:www\.)?github\.com(?:[:/?#]|$)/i.test(spec);
}

export function isGithubShorthand(spec: string): boolean {
  return /^[^/\s]+\/[^/\s]+$/.test(spec) && !spec.includes(":");
}

/** `owner/repo` (already known not to be a local path). */
export function parseGithubShorthand(spec: string): GithubTarget {
  refuseCharacters(spec);
  const [owner, repoRaw] = spec.split("/");
  return { owner: checkPart(owner, "owner"), repo: checkPart(stripGit(repoRaw), "repository") };
}

/** `https://github.com/o/r[.git][/]`, `…/tree/<ref>[/<path>]`, `…/blob/<ref>/<path>/SKILL.md`. */
export function parseGithubUrl(spec: string): GithubTarget {
  refuseCharacters(spec);
  const m = /^https:\/\/github\.com(\/.*)?$/i.exec(spec);
  if (!m) {
    throw sourceError(
      "invalid_source",
      `Only https://github.com/… URLs are accepted as GitHub sources: ${spec}`,
      `${HINT} Ports, user names and other hosts are refused here; for SSH use git@github.com:<owner>/<repo>.git.`,
    );
  }
  const rest = (m[1] ?? "").replace(/\/$/, "");
  const parts = rest.split("/").slice(1);
  if (parts.length < 2 || parts[0] === "" || parts[1] === "") {
    throw sourceError("invalid_source", `A GitHub source needs both an owner and a repository: ${spec}`, HINT);
  }
  const owner = checkPart(parts[0], "owner");
  const repo = checkPart(stripGit(parts[1]), "repository");
  if (parts.length === 2) return { owner, repo };
  const mode = parts[2];
  if ((mode !== "tree" && mode !== "blob") || parts.length < 4 || parts[1].endsWith(".git")) {
    throw sourceError("invalid_source", `Unsupported GitHub URL form: ${spec}`, HINT);
  }
  const ref = parts[3];
  if (ref === "" || !PART.test(ref) || ref === "." || ref === ".." || ref.startsWith("-") || ref.includes("..")) {
    throw sourceError(
      "invalid_source",
      `The git reference in this GitHub URL is not supported: ${JSON.stringify(ref)}`,
      "Refs may use letters, digits, '.', '_' and '-' (no '/', no '..', not starting with '-'). Use a tag or a full commit SHA.",
    );
  }
  let pathParts = parts.slice(4);
  if (mode === "blob") {
    const file = pathParts[pathParts.length - 1];
    if (pathParts.length === 0 || !BLOB_FILES.has(file)) {
      throw sourceError("invalid_source", `A /blob/ link must point at a SKILL.md or manifest file: ${spec}`, HINT);
    }
    pathParts = pathParts.slice(0, -1);
  }
  if (pathParts.length > 0 && relativePathProblem(pathParts.join("/")) !== undefined) {
    const bad = pathParts.find((p) => relativePathProblem(p) !== undefined) ?? pathParts.join("/");
    throw sourceError(
      "invalid_source",
      `The repository path in this GitHub URL has an unsupported component: ${JSON.stringify(bad)}`,
      HINT,
    );
  }
  const subpath = pathParts.length > 0 ? pathParts.join("/") : undefined;
  const target: GithubTarget = { owner, repo };
  if (isFullSha(ref)) target.pin = ref.toLowerCase();
  else target.ref = ref;
  if (subpath !== undefined) target.subpath = subpath;
  return target;
}

/** `?`, `#` and `%` would change what a URL means after decoding; whitespace and `\` have no place here. */
function refuseCharacters(spec: string): void {
  if (/[\s?#%\\]/.test(spec) || hasControlChars(spec)) {
    throw sourceError(
      "invalid_source",
      `GitHub sources with whitespace, query strings, fragments, percent-escapes or backslashes are not supported: ${JSON.stringify(spec)}`,
      `${HINT} To pick a branch or tag, use the /tree/<ref>/ form instead of #<ref>.`,
    );
  }
}

function checkPart(part: string, what: string): string {
  if (!PART.test(part) || part === "." || part === "..") {
    throw sourceError(
      "invalid_source",
      `The GitHub ${what} name ${JSON.stringify(part)} is not supported.`,
      "Owner and repository names use letters, digits, '.', '_' and '-'.",
    );
  }
  return part;
}

function stripGit(repo: string): string {
  return repo.toLowerCase().endsWith(".git") && repo.length > 4 ? repo.slice(0, -4) : repo;
}
