/**
 * plugin.json → the normalized C2Manifest, or every diagnostic it deserves in one run.
 * Order follows the reference (c2-notes §3.4): Agent Plugins root, dev.codetwo (standard,
 * unknown keys, commands, ui, connectors, language servers, cross-field rules), then the
 * runtime. A foreign `standardVersion` stops the C2 checks: it is a different contract.
 */
import type { Code } from "../../core/codes.ts";
import { jsonErrorPath, parseBoundedJson } from "../../bundle/json.ts";
import { join } from "node:path";
import { readRegularFile } from "../../bundle/read-file.ts";
import { DiagnosticSink, pointer, type Diagnostic } from "../../core/diagnostics.ts";
import { isGjcError } from "../../core/errors.ts";
import { isDeniedEnvName } from "../../process/env.ts";
import { checkExecutable } from "./executable.ts";
import {
  AGENT_PLUGINS_SCHEMA,
  C2_NAMESPACE,
  C2_STANDARD_VERSION,
  codePoints,
  plainTextProblem,
  COMMAND_ID_PATTERN,
  DESCRIPTION_MAX,
  LANGUAGE_ID_PATTERN,
  MAX_LANGUAGES,
  MANIFEST_FILE,
  NAME_PATTERN,
  PROTOCOL_PATTERN,
  RESERVED_COMMAND_NAMESPACES,
  SAFE_ID_PATTERN,
  SEMVER_PATTERN,
  TITLE_MAX,
} from "./rules.ts";
import { schemaDiagnostics, type ErrorMapping } from "./schema-errors.ts";
// The closed schemas of schema.ts as generated JSON: TypeBox loads only for a failing document.
import { Codetwo, ManifestRoot } from "./schemas.generated.ts";
import type {
  C2Capability,
  C2Command,
  C2Connector,
  C2Extension,
  C2LanguageServer,
  C2Manifest,
  C2Runtime,
  C2Scope,
  C2UiAction,
} from "./types.ts";

export interface ParseOptions {
  /** When given, bundle-relative executables must exist inside it without symlinks. */
  bundleDir?: string;
}

export interface ParsedManifest {
  manifest?: C2Manifest;
  diagnostics: Diagnostic[];
}

const ROOT = `${MANIFEST_FILE}#`;
const C2_AT = `${ROOT}/extensions/${C2_NAMESPACE}`;
const C2_LABEL = `extensions.${C2_NAMESPACE}`;

const PATTERN_HELP: Record<string, string> = {
  [NAME_PATTERN]:
    "use lowercase letters, digits, '.' and '-', start and end with a letter or digit, and never '--' or '..' (Agent Plugins 1.0.0 names)",
  [SEMVER_PATTERN]: "use a semantic version such as 1.0.0 (SemVer 2.0.0: no leading v, no leading zeros)",
  [COMMAND_ID_PATTERN]:
    "use a namespaced id such as review.run (two or more dot-separated parts of letters, digits, '_' or '-')",
  [SAFE_ID_PATTERN]: "use 1 to 128 letters, digits, '_' or '-'",
  [PROTOCOL_PATTERN]: "use a protocol version such as 1.0.0",
};
const NEWER_THAN_SEED: Record<string, string> = {
  commandTimeoutMs:
    "runtime.commandTimeoutMs is newer than C2 Plugin Standard 1.2.0 and is refused; a caller bounds one call with gjc plugin run --timeout.",
  issues: "The issues capability is newer than C2 Plugin Standard 1.2.0.",
  observations: "The observations capability is newer than C2 Plugin Standard 1.2.0.",
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads plugin.json from a bundle directory without following links. */
export function readC2ManifestFile(bundleDir: string): { raw?: unknown; diagnostics: Diagnostic[] } {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(join(bundleDir, MANIFEST_FILE), 4 * 1024 * 1024, MANIFEST_FILE).bytes;
  } catch (error) {
    if (!isGjcError(error)) throw error;
    const code = error.code === "missing_file" ? "missing_manifest" : error.code;
    const hint =
      code === "missing_manifest" ? "Select the bundle directory itself: the one that holds plugin.json." : error.hint;
    return {
      diagnostics: [
        { code, severity: "error", path: MANIFEST_FILE, message: error.message, ...(hint ? { hint } : {}) },
      ],
    };
  }
  try {
    return { raw: parseBoundedJson(new TextDecoder("utf-8", { fatal: true }).decode(bytes)), diagnostics: [] };
  } catch (error) {
    return {
      diagnostics: [
        {
          code: "invalid_manifest",
          severity: "error",
          path: jsonErrorPath(MANIFEST_FILE, error),
          message: `plugin.json is not valid UTF-8 JSON: ${(error as Error).message}`,
          hint: "Fix the JSON syntax (a JSON linter shows the exact spot).",
        },
      ],
    };
  }
}

/** Reads and parses a bundle's plugin.json. */
export function loadC2Manifest(bundleDir: string): ParsedManifest {
  const read = readC2ManifestFile(bundleDir);
  if (read.raw === undefined) return { diagnostics: read.diagnostics };
  return parseC2Manifest(read.raw, { bundleDir });
}

export function parseC2Manifest(raw: unknown, opts: ParseOptions = {}): ParsedManifest {
  const sink = new DiagnosticSink();
  if (!isObject(raw)) {
    sink.error(
      "invalid_manifest",
      ROOT,
      "plugin.json must hold a JSON object.",
      'Start from { "$schema": "…", "name": "…", "version": "1.0.0", "extensions": { "dev.codetwo": { "standardVersion": "1.2.0" } } }.',
    );
    return { diagnostics: sink.items };
  }

  for (const d of schemaDiagnostics(ManifestRoot, raw, rootMapping)) sink.add(d);
  if (!("version" in raw)) {
    sink.error(
      "invalid_version",
      `${ROOT}/version`,
      "C2 bundles require a semantic version; plugin.json has none.",
      'Add "version": "1.0.0" (catalogs match entries on it).',
    );
  }

  const extensions = raw.extensions;
  const codetwo = isObject(extensions) ? extensions[C2_NAMESPACE] : undefined;
  if (codetwo === undefined) {
    sink.error(
      "missing_codetwo",
      isObject(extensions) ? `${ROOT}/extensions` : ROOT,
      "C2 bundles require an extensions.dev.codetwo object.",
      `Add "extensions": { "${C2_NAMESPACE}": { "standardVersion": "${C2_STANDARD_VERSION}" } }.`,
    );
    return { diagnostics: sink.items };
  }
  if (!isObject(codetwo)) return { diagnostics: sink.items }; // reported by the root schema

  const standard = codetwo.standardVersion;
  if (standard !== C2_STANDARD_VERSION) {
    sink.error(
      "unsupported_standard",
      pointer(C2_AT, "standardVersion"),
      standard === undefined
        ? "extensions.dev.codetwo.standardVersion is missing."
        : `C2 Plugin Standard ${JSON.stringify(standard)} is not supported; only ${C2_STANDARD_VERSION} loads.`,
      `Set "standardVersion": "${C2_STANDARD_VERSION}" and migrate the bundle to that standard.`,
    );
    return { diagnostics: sink.items };
  }

  for (const d of schemaDiagnostics(Codetwo, codetwo, c2Mapping)) sink.add(d);
  const ext = checkCodetwo(codetwo, sink, opts);

  if (sink.hasErrors) return { diagnostics: sink.items };
  const manifest: C2Manifest = {
    schema: AGENT_PLUGINS_SCHEMA,
    name: raw.name as string,
    version: raw.version as string,
    ...pickStrings(raw, ["description", "homepage", "repository", "license"]),
    ...(isObject(raw.author) ? { author: { ...pickStrings(raw.author, ["name", "email", "url"]) } } : {}),
    keywords: Array.isArray(raw.keywords) ? [...(raw.keywords as string[])] : [],
    extensions: otherExtensions(extensions as Record<string, Record<string, unknown>> | undefined),
    codetwo: ext,
  };
  return { manifest, diagnostics: sink.items };
}

const rootMapping: ErrorMapping = {
  at: ROOT,
  label: "",
  code(segments) {
    switch (segments[0]) {
      case "$schema":
        return "unsupported_schema";
      case "name":
        return "invalid_name";
      case "version":
        return "invalid_version";
      default:
        return "invalid_manifest";
    }
  },
  patterns: PATTERN_HELP,
};

const C2_CODES: Record<string, Code> = {
  commands: "invalid_command",
  runtime: "invalid_runtime",
  ui: "invalid_ui",
  connectors: "invalid_connector",
  languageServers: "invalid_language_server",
};
const TOO_MANY: Record<string, Code> = {
  commands: "too_many_commands",
  ui: "too_many_ui",
  connectors: "too_many_connectors",
  languageServers: "too_many_language_servers",
};

const c2Mapping: ErrorMapping = {
  at: C2_AT,
  label: C2_LABEL,
  nestedLabel: "",
  code(segments, keyword) {
    const head = segments[0] ?? "";
    if (segments.length === 1 && keyword === "maxItems" && TOO_MANY[head]) return TOO_MANY[head];
    return C2_CODES[head] ?? "invalid_manifest";
  },
  patterns: PATTERN_HELP,
  unknownFieldHints: NEWER_THAN_SEED,
  enumHints: NEWER_THAN_SEED,
};

/**
 * The rules a schema cannot state, on whatever parts have the right shape; returns the
 * normalized extension (only meaningful when no error was recorded).
 */
function checkCodetwo(c2: Record<string, unknown>, sink: DiagnosticSink, opts: ParseOptions): C2Extension {
  const at = (key: string, i: number, field?: string) => {
    const p = pointer(pointer(C2_AT, key), i);
    return field === undefined ? p : pointer(p, field);
  };
  const label = (key: string, i: number, field: string) => `${key}[${i}].${field}`;

  // commands
  const commands: C2Command[] = [];
  const commandIds = new Set<string>();
  const commandsList = listOf(c2.commands);
  for (let i = 0; i < commandsList.length; i++) {
    const item = commandsList[i];
    if (!isObject(item)) continue;
    const title = text(
      item.title,
      {
        path: at("commands", i, "title"),
        label: label("commands", i, "title"),
        code: "invalid_command",
        max: TITLE_MAX,
        required: true,
      },
      sink,
    );
    const description = text(
      item.description,
      {
        path: at("commands", i, "description"),
        label: label("commands", i, "description"),
        code: "invalid_command",
        max: DESCRIPTION_MAX,
      },
      sink,
    );
    const args = item.argsSchema;
    if (args !== undefined && args !== null && !isObject(args)) {
      sink.error(
        "invalid_command",
        at("commands", i, "argsSchema"),
        `commands[${i}].argsSchema must be a JSON object (a JSON Schema) or null.`,
        'Write an object such as { "type": "object" }, or leave it out.',
      );
    }
    const id = item.id;
    if (typeof id === "string") {
      const ns = id.split(".")[0];
      // Case-insensitive: `Git.status` must not pass for a namespace other than the host's `git`.
      if ((RESERVED_COMMAND_NAMESPACES as readonly string[]).includes(ns.toLowerCase())) {
        sink.error(
          "reserved_namespace",
          at("commands", i, "id"),
          `commands[${i}].id "${id}" claims the "${ns}" namespace, which the host owns.`,
          `Use your bundle's own namespace (e.g. ${ns.toLowerCase() === "git" ? "mygit" : "myplugin"}.${id.split(".").slice(1).join(".")}); reserved: ${RESERVED_COMMAND_NAMESPACES.join(", ")}.`,
        );
      }
      if (commandIds.has(id))
        sink.error(
          "duplicate_command",
          at("commands", i, "id"),
          `The command id "${id}" is declared more than once.`,
          "Give every command a unique id.",
        );
      commandIds.add(id);
      commands.push({
        id,
        title: title ?? "",
        description: description ?? "",
        argsSchema: isObject(args) ? (args as Record<string, unknown>) : null,
      });
    }
  }

  // ui
  const ui: C2UiAction[] = [];
  const uiIds = new Set<string>();
  const uiList = listOf(c2.ui);
  for (let i = 0; i < uiList.length; i++) {
    const item = uiList[i];
    if (!isObject(item)) continue;
    const lbl = text(
      item.label,
      {
        path: at("ui", i, "label"),
        label: label("ui", i, "label"),
        code: "invalid_ui",
        max: TITLE_MAX,
        required: true,
      },
      sink,
    );
    const description = text(
      item.description,
      {
        path: at("ui", i, "description"),
        label: label("ui", i, "description"),
        code: "invalid_ui",
        max: DESCRIPTION_MAX,
      },
      sink,
    );
    // The host renders these as plain text and chooses the markup itself.
    for (const [field, value] of [
      ["label", item.label],
      ["description", item.description],
    ] as const) {
      const problem = typeof value === "string" ? plainTextProblem(value) : undefined;
      if (problem)
        sink.error(
          "invalid_ui",
          at("ui", i, field),
          `${label("ui", i, field)} ${problem}.`,
          "Write plain text on one line: the host chooses the markup, and refuses a document that carries its own.",
        );
    }
    if (typeof item.id === "string") {
      if (uiIds.has(item.id))
        sink.error(
          "duplicate_ui",
          at("ui", i, "id"),
          `The UI action id "${item.id}" is declared more than once.`,
          "UI action ids are unique across all slots.",
        );
      uiIds.add(item.id);
    }
    ui.push({
      id: item.id as string,
      slot: item.slot as C2UiAction["slot"],
      label: lbl ?? "",
      description: description ?? "",
      command: item.command as string,
      input: item.input === undefined ? null : item.input,
      order: typeof item.order === "number" ? item.order : 0,
    });
  }

  // connectors
  const connectors: C2Connector[] = [];
  const connectorIds = new Set<string>();
  const connectorsList = listOf(c2.connectors);
  for (let i = 0; i < connectorsList.length; i++) {
    const item = connectorsList[i];
    if (!isObject(item)) continue;
    if (typeof item.id === "string") {
      if (connectorIds.has(item.id))
        sink.error(
          "duplicate_connector",
          at("connectors", i, "id"),
          `The connector id "${item.id}" is declared more than once.`,
          "Give every connector a unique id.",
        );
      connectorIds.add(item.id);
    }
    const caps = Array.isArray(item.capabilities) ? [...new Set(item.capabilities as C2Capability[])] : [];
    connectors.push({
      id: item.id as string,
      provider: item.provider as string,
      command: item.command as string,
      capabilities: caps,
    });
  }

  // language servers
  const languageServers: C2LanguageServer[] = [];
  const lspIds = new Set<string>();
  const languageId = new RegExp(LANGUAGE_ID_PATTERN);
  const languageServersList = listOf(c2.languageServers);
  for (let i = 0; i < languageServersList.length; i++) {
    const item = languageServersList[i];
    if (!isObject(item)) continue;
    if (typeof item.id === "string") {
      if (lspIds.has(item.id))
        sink.error(
          "duplicate_language_server",
          at("languageServers", i, "id"),
          `The language server id "${item.id}" is declared more than once.`,
          "Give every language server a unique id.",
        );
      lspIds.add(item.id);
    }
    const languages: string[] = [];
    if (Array.isArray(item.languages)) {
      const langs = item.languages as unknown[];
      for (let j = 0; j < langs.length; j++) {
        const lang = langs[j];
        if (typeof lang !== "string") continue;
        const lower = lang.toLowerCase();
        if (!languageId.test(lower)) {
          sink.error(
            "invalid_language_server",
            pointer(at("languageServers", i, "languages"), j),
            `languageServers[${i}].languages[${j}] ${JSON.stringify(lang)} is not a Monaco language id.`,
            "Use a letter or digit followed by up to 63 letters, digits, '+', '_', '.' or '-' (e.g. zig, cpp).",
          );
        } else if (!languages.includes(lower)) languages.push(lower);
      }
      // "One to sixteen Monaco language IDs. Matching is case-insensitive": sixteen distinct ids.
      if (languages.length > MAX_LANGUAGES) {
        sink.error(
          "invalid_language_server",
          at("languageServers", i, "languages"),
          `languageServers[${i}].languages names ${languages.length} distinct language ids; at most ${MAX_LANGUAGES} are allowed.`,
          "Split the languages across several language servers, or drop the ones the server does not handle.",
        );
      }
    }
    if (typeof item.command === "string") {
      checkExecutable(item.command, {
        sink,
        path: at("languageServers", i, "command"),
        label: `language server command`,
        code: "invalid_language_server",
        bundleDir: opts.bundleDir,
      });
    }
    const args = strings(item.args);
    args.forEach((arg, j) => {
      // The standard passes args verbatim, so a placeholder reaches the server as those characters.
      if (/\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(arg)) {
        sink.warning(
          "invalid_language_server",
          pointer(at("languageServers", i, "args"), j),
          `languageServers[${i}].args[${j}] holds a \${…} placeholder; args are passed verbatim, so the server gets these characters as written.`,
          "The server can read PLUGIN_ROOT, PLUGIN_DATA and PLUGIN_PROJECT_DIR from its environment, or use a bundle-relative command (./bin/server).",
        );
      }
    });
    const env = stringMap(item.env);
    warnDroppedEnv(
      env,
      at("languageServers", i, "env"),
      `language server ${String(item.id)}`,
      "invalid_language_server",
      sink,
    );
    languageServers.push({ id: item.id as string, languages, command: item.command as string, args, env });
  }

  // cross-field rules. A runtime that is present but not an object was reported as
  // invalid_runtime above; the rules that depend on it are not judged again on top of that.
  const runtimeInvalid = c2.runtime !== undefined && !isObject(c2.runtime);
  const hasRuntime = c2.runtime !== undefined;
  const declaredCommands = Array.isArray(c2.commands) ? (c2.commands as unknown[]).length : 0;
  if (hasRuntime && !runtimeInvalid && declaredCommands === 0) {
    sink.error(
      "missing_commands",
      pointer(C2_AT, "commands"),
      "A process runtime needs at least one entry in extensions.dev.codetwo.commands.",
      "Declare every command the process implements; the host registers them before the process starts.",
    );
  }
  if (!hasRuntime) {
    if (c2.commands !== undefined && declaredCommands > 0)
      sink.error(
        "missing_runtime",
        pointer(C2_AT, "commands"),
        "Runtime commands require extensions.dev.codetwo.runtime.",
        "Declare the runtime process that implements them, or remove commands.",
      );
    if (Array.isArray(c2.ui) && c2.ui.length > 0)
      sink.error(
        "missing_runtime",
        pointer(C2_AT, "ui"),
        "UI actions require extensions.dev.codetwo.runtime.",
        "Declare the runtime whose commands the actions invoke, or remove ui.",
      );
    if (Array.isArray(c2.connectors) && c2.connectors.length > 0)
      sink.error(
        "missing_runtime",
        pointer(C2_AT, "connectors"),
        "Connectors require extensions.dev.codetwo.runtime.",
        "Declare the runtime whose command the connector calls, or remove connectors.",
      );
  }
  const commandId = new RegExp(COMMAND_ID_PATTERN);
  const ownCommand = (kind: "ui" | "connectors", what: string) => {
    const list = listOf(c2[kind]);
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (!isObject(item) || typeof item.command !== "string" || !commandId.test(item.command)) continue;
      if (!commandIds.has(item.command)) {
        sink.error(
          "undeclared_command",
          at(kind, i, "command"),
          `${what} "${String(item.id)}" references the command "${item.command}", which this bundle does not declare.`,
          "A UI action or connector may only invoke a command from the same bundle's commands array.",
        );
      }
    }
  };
  ownCommand("ui", "UI action");
  ownCommand("connectors", "Connector");

  // runtime last (the reference parses it after the components)
  let runtime: C2Runtime | null = null;
  if (isObject(c2.runtime)) {
    const r = c2.runtime;
    if (typeof r.command === "string")
      checkExecutable(r.command, {
        sink,
        path: pointer(pointer(C2_AT, "runtime"), "command"),
        label: "runtime command",
        code: "invalid_runtime",
        bundleDir: opts.bundleDir,
      });
    const declared = Array.isArray(r.scopeSupport) ? (r.scopeSupport as C2Scope[]) : [];
    warnDroppedEnv(stringMap(r.env), pointer(pointer(C2_AT, "runtime"), "env"), "the runtime", "invalid_runtime", sink);
    runtime = {
      command: r.command as string,
      protocol: typeof r.protocol === "string" ? r.protocol : "1.0.0",
      args: strings(r.args),
      env: stringMap(r.env),
      inject: [...new Set(strings(r.inject))],
      optionalInject: [...new Set(strings(r.optionalInject))],
      // "user" is always supported; "project" only when declared (c2-notes §9.2).
      scopeSupport: declared.includes("project") ? ["user", "project"] : ["user"],
    };
  }

  return { standardVersion: C2_STANDARD_VERSION, runtime, commands, ui, connectors, languageServers };
}

interface TextRule {
  path: string;
  label: string;
  code: Code;
  max: number;
  required?: boolean;
}

/** A trimmed string with a code-point limit; returns the stored (trimmed) value. */
/**
 * Declared env values reach the child, except names the child-environment rule never passes
 * (credentials, loader switches, names that are not portable): validate says which, before a
 * run would only log it.
 */
function warnDroppedEnv(
  env: Record<string, string>,
  path: string,
  who: string,
  code: Code,
  sink: DiagnosticSink,
): void {
  for (const name of Object.keys(env)) {
    if (!isDeniedEnvName(name)) continue;
    sink.warning(
      code,
      pointer(path, name),
      `${who} declares ${name}, which gjc never passes to a child (credential names, loader switches and names that are not plain [A-Za-z_][A-Za-z0-9_]*); it will be dropped.`,
      "Remove it: the other declared values reach the child as written.",
    );
  }
}

function text(value: unknown, r: TextRule, sink: DiagnosticSink): string | undefined {
  if (typeof value !== "string") return undefined; // absence and type are the schema's job
  const trimmed = value.trim();
  if (r.required && trimmed === "") {
    sink.error(r.code, r.path, `${r.label} is empty.`, "Write a short, non-empty text.");
  } else if (codePoints(trimmed) > r.max) {
    sink.error(
      r.code,
      r.path,
      `${r.label} is ${codePoints(trimmed)} characters long; the limit is ${r.max}.`,
      `Shorten it to ${r.max} characters (counted as Unicode code points).`,
    );
  }
  return trimmed;
}

/** An array field, or nothing when it is not an array. */
function listOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function strings(v: unknown): string[] {
  const out: string[] = [];
  if (Array.isArray(v)) for (const x of v) if (typeof x === "string") out.push(x);
  return out;
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObject(v)) for (const k of Object.keys(v)) if (typeof v[k] === "string") putOwn(out, k, v[k] as string);
  return out;
}

/** The extension namespaces other than dev.codetwo, kept unvalidated (DESIGN §2 item 1). */
function otherExtensions(
  extensions: Record<string, Record<string, unknown>> | undefined,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const ns of Object.keys(extensions ?? {})) if (ns !== C2_NAMESPACE) putOwn(out, ns, extensions![ns]);
  return out;
}

/**
 * `out[key] = value` as an own property, as Object.fromEntries does: a "__proto__" key from
 * JSON stays data and never becomes the object's prototype.
 */
function putOwn<T>(out: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

function pickStrings<K extends string>(o: Record<string, unknown>, keys: K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) if (typeof o[k] === "string") out[k] = o[k] as string;
  return out;
}
