import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { sha256Hex } from "../../bundle/hash.ts";
import { walkInside } from "../../bundle/path-safety.ts";
import { checkStdioLauncher, type StdioLaunch } from "../../policy/launcher.ts";
import { classifyMcpUrl } from "../../policy/url.ts";
import { APPENDIX_MAX_BYTES } from "./constants.ts";
import type { DeclaredFile, DeclaredFileReader } from "./declared-files.ts";
import { quote, visible, withoutBom } from "./fields.ts";
import { parseSubskillFile } from "./frontmatter.ts";
import { agentAppendixId, hookId, mcpId, subskillId, systemAppendixId, toolId } from "./ids.ts";
import type {
  GjcAgentAppendixEntry,
  GjcAppendixEntry,
  GjcHookEntry,
  GjcMcpEntry,
  GjcToolEntry,
  Located,
} from "./manifest-types.ts";
import type {
  GjcAppendixSurface,
  GjcHookSurface,
  GjcMcpSurface,
  GjcSubskillSurface,
  GjcSurface,
  GjcToolSurface,
} from "./surface-types.ts";

/** The surfaces compiled so far, in declaration order, and where each was declared (for duplicate reports). */
export interface SurfaceList {
  surfaces: GjcSurface[];
  where: Map<GjcSurface, string>;
}

/** Shared state of one compile: where diagnostics go and the one reader of declared files. */
export interface CompileScope {
  sink: DiagnosticSink;
  files: DeclaredFileReader;
  plugin: string;
}

/** One strict decoder for every appendix (decode() without { stream } keeps no state between calls). */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A declared sha256 (already lowercased) against the digest of the bytes we will copy. */
function checkDeclaredHash(
  scope: CompileScope,
  declared: string | undefined,
  actual: string,
  what: string,
  at: string,
): boolean {
  if (declared === undefined || declared === actual) return true;
  scope.sink.error(
    "hash_mismatch",
    `${at}/sha256`,
    `${what} has SHA-256 ${actual}, but the manifest declares ${declared}.`,
    "Restore the file, or update sha256 in the manifest if the change is intended.",
  );
  return false;
}

export function compileSubskill(
  scope: CompileScope,
  decl: Located<string>,
  scopedTools: string[],
): GjcSubskillSurface | undefined {
  const file = scope.files.read(decl.entry, decl.at, "Sub-skill");
  if (!file) return undefined;
  const { frontmatter } = parseSubskillFile(scope.sink, file.data, file.path);
  if (!frontmatter) return undefined;
  let ok = true;
  for (const tool of frontmatter.tools)
    if (!scope.files.read(tool, file.path, () => `Tool ${quote(tool)} of sub-skill ${quote(file.path)}`)) ok = false;
  if (!ok) return undefined;
  return {
    id: subskillId(frontmatter.parent, frontmatter.phase, frontmatter.activation_arg),
    kind: "subskill",
    enabledByDefault: true,
    name: frontmatter.name,
    description: frontmatter.description,
    parent: frontmatter.parent,
    parentKind: frontmatter.parentKind,
    phase: frontmatter.phase,
    activation_arg: frontmatter.activation_arg,
    path: file.path,
    sha256: file.sha256,
    toolPaths: distinct(scopedTools, frontmatter.tools),
  };
}

/** `a` then `b`, each path once. */
const distinct = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

/** An object entry of `tools` (string entries are sub-skill tool paths, read earlier). */
export function compileTool(scope: CompileScope, decl: Located<GjcToolEntry>): GjcToolSurface | undefined {
  const { entry, at } = decl;
  const what = `Tool ${quote(entry.name)}`;
  const file = scope.files.read(entry.path, `${at}/path`, what);
  if (!file || !checkDeclaredHash(scope, entry.sha256, file.sha256, `${what} (${entry.path})`, at)) return undefined;
  return {
    id: toolId(entry.name),
    kind: "tool",
    enabledByDefault: true,
    name: entry.name,
    description: entry.description ?? null,
    path: file.path,
    sha256: file.sha256,
  };
}

export function compileHook(scope: CompileScope, decl: Located<GjcHookEntry>): GjcHookSurface | undefined {
  const { entry, at } = decl;
  const what = `Hook ${quote(entry.name)}`;
  const file = scope.files.read(entry.path, `${at}/path`, what);
  if (!file || !checkDeclaredHash(scope, entry.sha256, file.sha256, `${what} (${entry.path})`, at)) return undefined;
  return {
    id: hookId(entry.event, entry.phase, entry.target, entry.name),
    kind: "hook",
    enabledByDefault: true,
    name: entry.name,
    event: entry.event,
    phase: entry.phase ?? null,
    target: entry.target ?? null,
    path: file.path,
    sha256: file.sha256,
  };
}

/**
 * MCP servers go through the shared policy: stdio launchers (DESIGN item 10) name the bundled
 * files they run, which are read and hashed like every declared file; http/sse URLs are judged
 * by the staged classifier (DESIGN item 11, the sync stages; DNS is checked before connecting).
 */
export function compileMcp(scope: CompileScope, decl: Located<GjcMcpEntry>): GjcMcpSurface | undefined {
  const { entry, at } = decl;
  const who = () => `MCP server ${quote(entry.name)}`;
  let launcher: GjcMcpSurface["launcher"] = null;
  if (entry.transport === "stdio") {
    const launch: StdioLaunch = {
      command: entry.command!,
      ...(entry.args && { args: entry.args }),
      ...(entry.cwd !== undefined && { cwd: entry.cwd }),
    };
    const verdict = checkStdioLauncher(launch);
    if (!verdict.ok) {
      scope.sink.error(
        "security_policy",
        at,
        `${who()} cannot be launched: ${visible(verdict.reason)}`,
        'A bundle server runs as "node" or "bun" with a bundled script as the first argument, or as an executable inside the bundle ("./bin/server").',
      );
      return undefined;
    }
    const cwd = verdict.cwd !== undefined && verdict.cwd !== "" && verdict.cwd !== "." ? verdict.cwd : null;
    if (cwd !== null) {
      const dir = walkInside(scope.files.rootDir, cwd, "dir");
      if (!dir.ok) {
        scope.sink.error(
          dir.reason === "symlink" ? "security_policy" : "missing_file",
          `${at}/cwd`,
          `${who()}: cwd ${quote(cwd)} is not a directory inside the bundle${dir.reason === "symlink" ? " (it goes through a symbolic link)" : ""}.`,
          "Point cwd at a folder of the bundle, or leave it out to use the bundle root.",
        );
        return undefined;
      }
    }
    const runs: DeclaredFile[] = [];
    for (const [role, rel] of [
      ["script", verdict.script],
      ["executable", verdict.executable],
    ] as const) {
      if (rel === undefined) continue;
      const file = scope.files.read(rel, at, () => `The ${role} of ${who()}`);
      if (!file) return undefined;
      if (role === "executable" && (file.mode & 0o111) === 0) {
        scope.sink.error(
          "security_policy",
          at,
          `${who()}: ${quote(rel)} is not executable.`,
          `Mark it executable (chmod +x ${rel}) or launch it with node or bun.`,
        );
        return undefined;
      }
      runs.push(file);
    }
    if (runs.length === 0) {
      scope.sink.error(
        "security_policy",
        at,
        `${who()} names no bundled script or executable to run.`,
        'Give the bundled script as the first argument: "command": "bun", "args": ["server.ts"].',
      );
      return undefined;
    }
    if (
      entry.sha256 !== undefined &&
      !checkDeclaredHash(
        scope,
        entry.sha256,
        runs[0].sha256,
        `The bundled entry point ${quote(runs[0].path)} of ${who()}`,
        at,
      )
    )
      return undefined;
    launcher = { kind: verdict.kind, script: verdict.script ?? null, executable: verdict.executable ?? null, cwd };
  } else {
    const verdict = classifyMcpUrl(entry.url!);
    if (!verdict.ok) {
      scope.sink.error(
        "security_policy",
        `${at}/url`,
        `${who()} has a URL that is not allowed: ${visible(verdict.reason)}`,
        "Bundle MCP servers must be reached over https:// on a public host name or address, without credentials in the URL.",
      );
      return undefined;
    }
  }
  const config = {
    name: entry.name,
    transport: entry.transport,
    command: entry.command ?? null,
    args: entry.args ?? null,
    cwd: entry.cwd ?? null,
    url: entry.url ?? null,
  };
  return {
    id: mcpId(entry.name),
    kind: "mcp",
    enabledByDefault: true,
    ...config,
    launcher,
    configSha256: sha256Hex(JSON.stringify(config)),
  };
}

/**
 * An appendix is text for a prompt: a file must be UTF-8, not blank, and within the 8 KiB
 * cap (the renderer drops larger ones, so they fail here instead of vanishing later).
 */
export function compileAppendix(
  scope: CompileScope,
  decl: Located<GjcAppendixEntry | GjcAgentAppendixEntry>,
  kind: "system-appendix" | "agent-appendix",
): GjcAppendixSurface | undefined {
  const { entry, at } = decl;
  const agent = "agent" in entry ? entry.agent : null;
  const who = () =>
    `${kind === "agent-appendix" ? "agent-appendix" : "system_appendix"} ${quote(agent ? `${agent}/${entry.name}` : entry.name)}`;
  let sha256: string;
  let bytes: number;
  if (entry.path !== undefined) {
    const file = scope.files.read(entry.path, `${at}/path`, () => `The file of ${who()}`);
    if (!file) return undefined;
    let text: string;
    try {
      text = STRICT_UTF8.decode(file.data);
    } catch {
      scope.sink.error(
        "invalid_appendix",
        `${at}/path`,
        `The file ${quote(file.path)} of ${who()} is not UTF-8 text.`,
        "Save it as UTF-8.",
      );
      return undefined;
    }
    if (withoutBom(text).trim() === "") {
      scope.sink.error(
        "invalid_appendix",
        `${at}/path`,
        `The file ${quote(file.path)} of ${who()} is empty.`,
        "Write the appendix text, or remove the entry.",
      );
      return undefined;
    }
    if (file.bytes > APPENDIX_MAX_BYTES) {
      scope.sink.error(
        "invalid_appendix",
        `${at}/path`,
        `The file ${quote(file.path)} of ${who()} is ${file.bytes} bytes; one appendix may hold at most ${APPENDIX_MAX_BYTES} bytes (8 KiB).`,
        "Shorten the text; an oversize appendix would be dropped from the prompt.",
      );
      return undefined;
    }
    sha256 = file.sha256;
    bytes = file.bytes;
  } else {
    const data = new TextEncoder().encode(entry.content!);
    sha256 = sha256Hex(data);
    bytes = data.length;
  }
  if (entry.sha256 !== undefined && !checkDeclaredHash(scope, entry.sha256, sha256, `The text of ${who()}`, at))
    return undefined;
  return {
    id: agent !== null ? agentAppendixId(agent, scope.plugin, entry.name) : systemAppendixId(scope.plugin, entry.name),
    kind,
    enabledByDefault: true,
    plugin: scope.plugin,
    agent,
    name: entry.name,
    source: entry.path !== undefined ? "file" : "inline",
    path: entry.path ?? null,
    content: entry.content ?? null,
    sha256,
    bytes,
  };
}
