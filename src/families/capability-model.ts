/**
 * The capability model: what a bundle can make happen once it is installed, trusted and
 * enabled, in one vocabulary for both families. It is built from the same plan/compile that
 * validate and install use (never from the bundle's own claims about itself), and it never
 * holds a secret: environment variables and headers appear by name only, prompt text by size
 * and digest.
 */
import type { FamilyId } from "./types.ts";

/** Where a capability is declared: a manifest file and a JSON pointer inside it. */
export interface DeclaredAt {
  /** Bundle-relative file (`plugin.json`, `mcp.json`, `gajae-plugin.json`). */
  file: string;
  /** RFC 6901 pointer inside that file ("" for the whole document). */
  pointer: string;
}

export type ProcessKind = "c2-runtime" | "language-server" | "mcp-stdio" | "tool-module" | "hook-module";

/** A process the bundle can start, or code the host loads for it. */
export interface ProcessCapability {
  /** Stable within the bundle: `<kind>:<name>`. */
  id: string;
  kind: ProcessKind;
  name: string;
  /**
   * The program as it will run: a PATH program name (`node`), or a bundle path written as
   * `${PLUGIN_ROOT}/bin/x` (the installed root differs per machine).
   */
  command: string;
  /** Arguments as they will be passed (flags gjc adds included, placeholders kept). */
  args: string[];
  cwd: string;
  /** True when `command` is a file inside the bundle (hashed, copied, verified). */
  commandInBundle: boolean;
  /** The bundled file the program runs, when it is an interpreter given a bundled script. */
  script: string | null;
  /** `sha256:<hex>` of the bundled file that runs (the executable or the script), when there is one. */
  codeSha256?: string;
  /**
   * What the child sees of the host environment: gjc's allow-list (src/process/env.ts) plus the
   * manifest's env minus credentials, or, for GJC tool/hook modules, whatever the agent has.
   */
  hostEnvironment: "allow-list" | "agent";
  at: DeclaredAt;
}

export interface EndpointCapability {
  id: string;
  kind: "mcp";
  name: string;
  transport: string;
  /** The URL without credentials, query or fragment (they may carry tokens). */
  url: string;
  scheme: string;
  host: string;
  /** Header names sent with every request (values never shown). */
  headers: string[];
  at: DeclaredAt;
}

export interface EnvCapability {
  /** The process or endpoint it belongs to. */
  owner: string;
  name: string;
  /** `sets`: the bundle gives a value; `passes`: the value is a host variable it names. */
  mode: "sets" | "passes";
  /** For `passes`: the host variable read. */
  from: string | null;
  at: DeclaredAt;
}

export interface HookCapability {
  id: string;
  name: string;
  event: string;
  target: string | null;
  phase: string | null;
  /** The module that runs, bundle-relative (null for inventoried-only C2 hooks files). */
  path: string | null;
  /** false for C2 hooks/hooks.json, which gjc inventories but never runs. */
  supported: boolean;
  at: DeclaredAt;
}

export interface HostCapability {
  owner: string;
  /** `inject`/`optionalInject` (host services a C2 runtime asks for), `ui-slot`, `connector`, `command`. */
  kind: "inject" | "optional-inject" | "ui-slot" | "connector" | "command";
  name: string;
  /** A `command`'s host-readable metadata (not part of the trust digest: it runs nothing). */
  title?: string;
  description?: string;
  argsSchema?: unknown;
  at: DeclaredAt;
}

export interface PromptCapability {
  id: string;
  kind: "system-appendix" | "agent-appendix" | "subskill" | "skill" | "agent" | "prompt-command";
  name: string;
  /** Bundle-relative file holding the text, or null for inline text. */
  path: string | null;
  bytes: number;
  sha256: string;
}

export interface CapabilityModel {
  family: FamilyId;
  name: string;
  version: string;
  processes: ProcessCapability[];
  endpoints: EndpointCapability[];
  env: EnvCapability[];
  hooks: HookCapability[];
  hostCommands: HostCapability[];
  prompts: PromptCapability[];
  /** Total bytes of prompt text the bundle can inject. */
  promptBytes: number;
  files: { count: number; bytes: number };
}

/** A model with no capabilities yet: each family's extractor fills it in. */
export function emptyModel(
  family: FamilyId,
  name: string,
  version: string,
  files: { count: number; bytes: number },
): CapabilityModel {
  return {
    family,
    name,
    version,
    processes: [],
    endpoints: [],
    env: [],
    hooks: [],
    hostCommands: [],
    prompts: [],
    promptBytes: 0,
    files,
  };
}

/** `${PLUGIN_ROOT}/<rel>`: how a bundle path is shown before it is installed anywhere. */
export const rootPath = (rel: string): string =>
  rel === "" || rel === "." ? "${PLUGIN_ROOT}" : `\${PLUGIN_ROOT}/${rel.startsWith("./") ? rel.slice(2) : rel}`;

/** A URL with credentials, query and fragment removed; the host as parsed. */
export function describeUrl(raw: string): { url: string; scheme: string; host: string } {
  try {
    const u = new URL(raw);
    return { url: `${u.protocol}//${u.host}${u.pathname}`, scheme: u.protocol.replace(/:$/, ""), host: u.hostname };
  } catch {
    return { url: "(unparsable URL)", scheme: "", host: "" };
  }
}

const ROOT_PREFIX = "${PLUGIN_ROOT}/";

/** Sets codeSha256 of every process from the bundle's file hashes (hex, by bundle-relative path). */
export function attachCodeDigests(model: CapabilityModel, sha256Of: (path: string) => string | undefined): void {
  for (const p of model.processes) {
    if (p.codeSha256 !== undefined) continue;
    const file = p.commandInBundle ? p.command.slice(ROOT_PREFIX.length) : p.script;
    const hex = file === null ? undefined : sha256Of(file);
    if (hex !== undefined) p.codeSha256 = `sha256:${hex}`;
  }
}
