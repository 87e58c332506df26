/**
 * C2 catalogs (marketplace.json, standardVersion 1.0.0): closed catalog, entry and source
 * objects, the five source kinds, unique entry names. `parseCatalog` is pure; for
 * `validateCatalog` every `local` entry's bundle is validated too and must carry the
 * entry's name and version. Per-entry problems are `invalid_plugin_entry` diagnostics (and
 * `duplicate_plugin`), so one run reports every entry; catalog-level problems stop parsing.
 */
import type { Code } from "../../core/codes.ts";
import { jsonErrorPath, parseBoundedJson } from "../../bundle/json.ts";
import { dirname, join, relative } from "node:path";
import { readRegularFile } from "../../bundle/read-file.ts";
import { relativePathProblem, stripDotSlash, walkInside } from "../../bundle/path-safety.ts";
import type { Context } from "../../core/context.ts";
import { DiagnosticSink, pointer, type Diagnostic } from "../../core/diagnostics.ts";
import { isGjcError } from "../../core/errors.ts";
import type { CatalogEntrySummary, ValidationReport } from "../types.ts";
import {
  AUTHENTICATION_POLICIES,
  CATALOG_STANDARD_VERSION,
  CatalogSchema,
  EntrySchema,
  INSTALLATION_POLICIES,
  LOCAL_PATH_PATTERN,
  NPM_PACKAGE_PATTERN,
  REF_PATTERN,
  REPOSITORY_PATTERN,
  SHA1_PATTERN,
  SHA256_PATTERN,
  SOURCE_KINDS,
  SOURCE_SCHEMAS,
  SUBPATH_PATTERN,
  type SourceKind,
} from "./catalog-schema.ts";
import { NAME_PATTERN, SEMVER_PATTERN } from "./rules.ts";
import { schemaDiagnostics } from "./schema-errors.ts";
import { planC2Bundle } from "./validate.ts";

export const CATALOG_FILE = "marketplace.json";
const AT = `${CATALOG_FILE}#`;

export type C2CatalogSource =
  | { kind: "local"; path: string }
  | { kind: "github"; repository: string; ref?: string; sha?: string; path?: string }
  | { kind: "git"; url: string; path?: string; ref?: string; sha?: string }
  | { kind: "npm"; package: string; version?: string; registry?: string }
  | { kind: "archive"; url: string; sha256?: string };

export interface C2CatalogEntry {
  /** Position in `plugins`, for messages. */
  index: number;
  name: string;
  displayName?: string;
  version: string;
  description?: string;
  category?: string;
  installationPolicy: (typeof INSTALLATION_POLICIES)[number];
  authenticationPolicy: (typeof AUTHENTICATION_POLICIES)[number];
  defaultEnabled: boolean;
  source: C2CatalogSource;
}

export interface C2Catalog {
  standardVersion: "1.0.0";
  name: string;
  displayName?: string;
  description?: string;
  /** Valid entries only, first occurrence of each name. */
  plugins: C2CatalogEntry[];
}

export interface ParsedCatalog {
  /** Absent when the catalog itself (not an entry) is invalid. */
  catalog?: C2Catalog;
  entries: CatalogEntrySummary[];
  diagnostics: Diagnostic[];
}

const PATTERNS: Record<string, string> = {
  [NAME_PATTERN]:
    "use lowercase letters, digits, '.' and '-', starting and ending with a letter or digit (Agent Plugins names)",
  [SEMVER_PATTERN]: "use a semantic version such as 1.0.0",
  [LOCAL_PATH_PATTERN]: 'write "." or a path starting with "./", relative to marketplace.json',
  [REPOSITORY_PATTERN]: "write owner/repository",
  [REF_PATTERN]: "use a branch or tag name (no leading '-', no '..', no spaces)",
  [SHA1_PATTERN]: "use the full 40-character lowercase commit SHA",
  [SHA256_PATTERN]: "use 64 lowercase hex digits",
  [NPM_PACKAGE_PATTERN]: "use an npm package name such as @scope/name",
  [SUBPATH_PATTERN]: "use a relative path inside the repository without '..', '.', '//', '\\' or ':'",
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads marketplace.json without following links. */
export function readCatalogFile(file: string): { raw?: unknown; diagnostics: Diagnostic[] } {
  try {
    const bytes = readRegularFile(file, 4 * 1024 * 1024, CATALOG_FILE).bytes;
    try {
      return { raw: parseBoundedJson(new TextDecoder("utf-8", { fatal: true }).decode(bytes)), diagnostics: [] };
    } catch (error) {
      return {
        diagnostics: [
          {
            code: "invalid_catalog",
            severity: "error",
            path: jsonErrorPath(CATALOG_FILE, error),
            message: `marketplace.json is not valid UTF-8 JSON: ${(error as Error).message}`,
            hint: "Fix the JSON syntax.",
          },
        ],
      };
    }
  } catch (error) {
    if (!isGjcError(error)) throw error;
    return {
      diagnostics: [
        {
          code: error.code === "missing_file" ? "missing_catalog" : error.code,
          severity: "error",
          path: CATALOG_FILE,
          message: error.message,
          ...(error.hint ? { hint: error.hint } : {}),
        },
      ],
    };
  }
}

export function parseCatalog(raw: unknown): ParsedCatalog {
  const sink = new DiagnosticSink();
  const entries: CatalogEntrySummary[] = [];
  if (!isObject(raw)) {
    sink.error(
      "invalid_catalog",
      AT,
      "marketplace.json must hold a JSON object.",
      `Write { "standardVersion": "${CATALOG_STANDARD_VERSION}", "name": "…", "plugins": [ … ] }.`,
    );
    return { entries, diagnostics: sink.items };
  }
  if (raw.standardVersion !== CATALOG_STANDARD_VERSION) {
    sink.error(
      "unsupported_standard",
      `${AT}/standardVersion`,
      raw.standardVersion === undefined
        ? "marketplace.json has no standardVersion."
        : `Catalog standard ${JSON.stringify(raw.standardVersion)} is not supported; only ${CATALOG_STANDARD_VERSION} loads.`,
      `Set "standardVersion": "${CATALOG_STANDARD_VERSION}".`,
    );
    return { entries, diagnostics: sink.items };
  }
  for (const d of schemaDiagnostics(CatalogSchema, raw, {
    at: AT,
    label: "",
    code: (): Code => "invalid_catalog",
    patterns: PATTERNS,
  }))
    sink.add(d);
  if (sink.hasErrors || !Array.isArray(raw.plugins)) return { entries, diagnostics: sink.items };

  const plugins: C2CatalogEntry[] = [];
  const seen = new Map<string, number>();
  raw.plugins.forEach((item, index) => {
    const at = pointer(`${AT}/plugins`, index);
    const before = sink.items.length;
    const entry = parseEntry(item, index, at, sink);
    const name = isObject(item) && typeof item.name === "string" ? item.name : null;
    const version = isObject(item) && typeof item.version === "string" ? item.version : null;
    const source = isObject(item) && isObject(item.source) ? describeSource(item.source) : null;
    if (name !== null) {
      const first = seen.get(name);
      if (first !== undefined) {
        sink.error(
          "duplicate_plugin",
          pointer(at, "name"),
          `The plugin name "${name}" is already used by entry ${first}; this entry would be skipped.`,
          "Give every entry a unique name (it is how gjc plugin install name@catalog finds it).",
        );
      } else seen.set(name, index);
    }
    const ok = sink.items.length === before;
    if (ok && entry) plugins.push(entry);
    entries.push({ index, name, version, source, ok });
  });

  const catalog: C2Catalog = {
    standardVersion: CATALOG_STANDARD_VERSION,
    name: raw.name as string,
    ...(typeof raw.displayName === "string" ? { displayName: raw.displayName } : {}),
    ...(typeof raw.description === "string" ? { description: raw.description } : {}),
    plugins,
  };
  return { catalog, entries, diagnostics: sink.items };
}

function parseEntry(item: unknown, index: number, at: string, sink: DiagnosticSink): C2CatalogEntry | undefined {
  if (!isObject(item)) {
    sink.error(
      "invalid_plugin_entry",
      at,
      `plugins[${index}] must be an object.`,
      "Each entry is { name, version, source, … }.",
    );
    return undefined;
  }
  const before = sink.items.length;
  const entryMapping = { at, label: `plugins[${index}]`, code: (): Code => "invalid_plugin_entry", patterns: PATTERNS };
  // Unknown keys are entry errors too; the message keeps its "did you mean".
  for (const d of schemaDiagnostics(EntrySchema, item, entryMapping)) sink.add({ ...d, code: "invalid_plugin_entry" });
  const source = item.source;
  if (isObject(source)) {
    const kind = source.kind;
    if (typeof kind !== "string" || !(SOURCE_KINDS as readonly string[]).includes(kind)) {
      sink.error(
        "invalid_plugin_entry",
        pointer(pointer(at, "source"), "kind"),
        `plugins[${index}].source.kind ${kind === undefined ? "is missing" : `${JSON.stringify(kind)} is not a source kind`}.`,
        `Use one of: ${SOURCE_KINDS.join(", ")}.`,
      );
    } else {
      const schema = SOURCE_SCHEMAS[kind as SourceKind];
      for (const d of schemaDiagnostics(schema, source, {
        ...entryMapping,
        at: pointer(at, "source"),
        label: `plugins[${index}].source`,
      }))
        sink.add({ ...d, code: "invalid_plugin_entry" });
      checkSourceUrls(kind as SourceKind, source, pointer(at, "source"), `plugins[${index}].source`, sink);
    }
  }
  if (sink.items.length !== before) return undefined;
  return {
    index,
    name: item.name as string,
    ...(typeof item.displayName === "string" ? { displayName: item.displayName } : {}),
    version: item.version as string,
    ...(typeof item.description === "string" ? { description: item.description } : {}),
    ...(typeof item.category === "string" ? { category: item.category } : {}),
    installationPolicy: (item.installationPolicy as C2CatalogEntry["installationPolicy"]) ?? "AVAILABLE",
    authenticationPolicy: (item.authenticationPolicy as C2CatalogEntry["authenticationPolicy"]) ?? "ON_FIRST_USE",
    defaultEnabled: (item.defaultEnabled as boolean | undefined) ?? true,
    source: { ...(source as Record<string, unknown>) } as C2CatalogSource,
  };
}

/** URL fields: transports gjc can fetch, never with credentials. */
function checkSourceUrls(
  kind: SourceKind,
  s: Record<string, unknown>,
  at: string,
  label: string,
  sink: DiagnosticSink,
): void {
  const bad = (field: string, message: string, hint: string) =>
    sink.error("invalid_plugin_entry", pointer(at, field), `${label}.${field} ${message}`, hint);
  if (kind === "git" && typeof s.url === "string" && s.url !== "") {
    const problem = gitUrlProblem(s.url);
    if (problem)
      bad("url", problem, "Use https://host/owner/repo.git, ssh://git@host/owner/repo.git or git@host:owner/repo.git.");
  }
  if (kind === "archive" && typeof s.url === "string" && s.url !== "") {
    // A `./` path names an archive shipped beside the catalog: it installs offline.
    const problem = s.url.startsWith("./") ? localArchiveProblem(s.url) : httpsUrlProblem(s.url);
    if (problem)
      bad(
        "url",
        problem,
        "Use an https:// URL of a .tar.gz or .tgz file, or ./path/to/file.tgz inside the catalog's folder.",
      );
  }
  if (kind === "npm" && typeof s.registry === "string") {
    const problem = httpsUrlProblem(s.registry);
    if (problem) bad("registry", problem, "Use the registry's https:// URL.");
  }
}

function localArchiveProblem(raw: string): string | undefined {
  const problem = relativePathProblem(stripDotSlash(raw));
  if (problem) return `${problem}; a local archive must stay inside the catalog's folder.`;
  if (!/\.(tgz|tar\.gz|tar)$/i.test(raw)) return "must name a .tgz, .tar.gz or .tar file.";
  return undefined;
}

/** Resolves a catalog-relative archive (`./dist/x.tgz`): a regular file inside the catalog's folder, reached without symlinks. */
export function resolveLocalArchive(
  catalogFile: string,
  url: string,
): { file: string } | { problem: string; code: Code } {
  const lexical = localArchiveProblem(url);
  if (lexical) return { code: "unsafe_path", problem: lexical.replace(/\.$/, "") };
  const rel = stripDotSlash(url);
  const walk = walkInside(dirname(catalogFile), rel, "file");
  if (walk.ok) return { file: join(dirname(catalogFile), rel) };
  if (walk.reason === "symlink") return { code: "unsafe_path", problem: `goes through the symbolic link ${walk.at}` };
  return {
    code: "invalid_plugin_entry",
    problem: walk.reason === "missing" ? "does not exist" : "is not a regular file",
  };
}

function httpsUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not a URL.";
  }
  if (url.protocol !== "https:") return `must use https, not ${url.protocol.slice(0, -1)}.`;
  if (url.username || url.password) return "must not carry credentials.";
  return undefined;
}

/** https, ssh, scp-style and file transports (DESIGN §2 item 14); no credentials stored. */
export function gitUrlProblem(raw: string): string | undefined {
  if (/\s/.test(raw) || raw.startsWith("-")) return "is not a usable git URL.";
  if (/^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?!\/\/)[^\\]+$/.test(raw)) return undefined; // scp-style git@host:owner/repo
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not a URL or an scp-style git address.";
  }
  if (!["https:", "ssh:", "file:"].includes(url.protocol))
    return `uses the ${url.protocol.slice(0, -1)} transport; only https, ssh and file are allowed.`;
  if (url.password || (url.protocol === "https:" && url.username)) return "must not carry credentials.";
  return undefined;
}

export function describeSource(s: Record<string, unknown>): string {
  const v = (k: string) => (typeof s[k] === "string" ? (s[k] as string) : "");
  switch (s.kind) {
    case "local":
      return `local ${v("path")}`;
    case "github":
      return `github ${v("repository")}${v("path") ? `/${v("path")}` : ""}${v("sha") ? `@${v("sha").slice(0, 12)}` : v("ref") ? `@${v("ref")}` : ""}`;
    case "git":
      return `git ${v("url")}${v("path") ? ` ${v("path")}` : ""}${v("sha") ? `@${v("sha").slice(0, 12)}` : v("ref") ? `@${v("ref")}` : ""}`;
    case "npm":
      return `npm ${v("package")}${v("version") ? `@${v("version")}` : ""}`;
    case "archive":
      return `archive ${v("url")}`;
    default:
      return String(s.kind ?? "unknown");
  }
}

/**
 * The bundle directory of a `local` source: under the catalog's directory, reached without
 * symlinks. Returns the absolute directory or the reason it is refused.
 */
export function resolveLocalSource(
  catalogFile: string,
  path: string,
): { dir: string } | { problem: string; code: Code } {
  const root = dirname(catalogFile);
  const rel = stripDotSlash(path === "." ? "./" : path).replace(/\/+$/, "");
  if (rel === "") return { dir: root };
  const problem = relativePathProblem(rel);
  if (problem) return { code: "unsafe_path", problem: `${problem}; it must stay inside the catalog's directory` };
  const walk = walkInside(root, rel, "dir");
  if (walk.ok) return { dir: join(root, rel) };
  if (walk.reason === "symlink") return { code: "unsafe_path", problem: `goes through the symbolic link ${walk.at}` };
  return { code: "invalid_plugin_entry", problem: walk.reason === "missing" ? "does not exist" : "is not a directory" };
}

export async function validateCatalog(_ctx: Context, file: string): Promise<ValidationReport> {
  const read = readCatalogFile(file);
  const sink = new DiagnosticSink();
  for (const d of read.diagnostics) sink.add(d);
  const parsed: ParsedCatalog = read.raw === undefined ? { entries: [], diagnostics: [] } : parseCatalog(read.raw);
  for (const d of parsed.diagnostics) sink.add(d);
  const entries = parsed.entries;

  // Local entries: the bundle must be valid and be the one the entry names.
  if (parsed.catalog && Array.isArray((read.raw as { plugins?: unknown }).plugins)) {
    for (const item of (read.raw as { plugins: unknown[] }).plugins.entries()) {
      const [index, entry] = item;
      if (
        !isObject(entry) ||
        !isObject(entry.source) ||
        entry.source.kind !== "local" ||
        typeof entry.source.path !== "string"
      )
        continue;
      if (!new RegExp(LOCAL_PATH_PATTERN).test(entry.source.path)) continue;
      const at = pointer(`${AT}/plugins`, index);
      const summary = entries[index];
      const resolved = resolveLocalSource(file, entry.source.path);
      if ("problem" in resolved) {
        sink.error(
          resolved.code,
          pointer(pointer(at, "source"), "path"),
          `plugins[${index}].source.path ${JSON.stringify(entry.source.path)} ${resolved.problem}.`,
          "Point it at the bundle directory next to marketplace.json.",
        );
        if (summary) summary.ok = false;
        continue;
      }
      const plan = planC2Bundle(resolved.dir);
      const prefix = relative(dirname(file), resolved.dir);
      for (const d of plan.diagnostics) sink.add({ ...d, path: prefix === "" ? d.path : `${prefix}/${d.path}` });
      if (!plan.ok) {
        sink.error(
          "invalid_plugin_entry",
          pointer(pointer(at, "source"), "path"),
          `plugins[${index}] points at an invalid bundle (${prefix || "."}); see the errors above.`,
          "Fix the bundle, then validate the catalog again.",
        );
      }
      const { name, version } = plan.manifest ?? plan.declared;
      if (typeof entry.name === "string" && name !== null && name !== entry.name) {
        sink.error(
          "catalog_mismatch",
          pointer(at, "name"),
          `plugins[${index}].name is "${entry.name}" but the bundle is named "${name}".`,
          "The entry's name must equal the bundle's plugin.json name.",
        );
      }
      if (typeof entry.version === "string" && version !== null && version !== entry.version) {
        sink.error(
          "catalog_mismatch",
          pointer(at, "version"),
          `plugins[${index}].version is ${entry.version} but the bundle is version ${version}.`,
          "Update the entry (or the bundle) so both versions agree.",
        );
      }
      if (summary && (!plan.ok || name !== entry.name || version !== entry.version)) summary.ok = false;
    }
  }

  const raw = read.raw as { name?: unknown } | undefined;
  return {
    ok: !sink.hasErrors,
    family: "catalog",
    target: file,
    name: typeof raw?.name === "string" ? raw.name : null,
    version: null,
    entries,
    diagnostics: sink.items,
  };
}
