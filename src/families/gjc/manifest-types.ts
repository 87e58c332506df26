import type { McpTransport } from "./constants.ts";

/**
 * The canonical normalized manifest: what a bundle means once aliases are resolved. Keys are
 * always written in this order and optional fields are omitted when absent, so two spellings
 * of the same bundle serialize to the same bytes.
 */
export interface GjcToolEntry {
  name: string;
  path: string;
  description?: string;
  sha256?: string;
}

export interface GjcHookEntry {
  name: string;
  event: string;
  target?: string;
  phase?: "before" | "after";
  path: string;
  sha256?: string;
}

export interface GjcMcpEntry {
  name: string;
  transport: McpTransport;
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
  sha256?: string;
}

export interface GjcAppendixEntry {
  name: string;
  path?: string;
  content?: string;
  sha256?: string;
}

export interface GjcAgentAppendixEntry extends GjcAppendixEntry {
  agent: string;
}

export interface GjcManifest {
  kind: string;
  name: string;
  version: string;
  subskills: string[];
  /** Object entries are always-on tools; strings are sub-skill-scoped tool module paths. */
  tools: (GjcToolEntry | string)[];
  hooks: GjcHookEntry[];
  mcps: GjcMcpEntry[];
  system_appendix: GjcAppendixEntry[];
  "agent-appendix": GjcAgentAppendixEntry[];
}

/**
 * An entry that parsed, with the JSON pointer of where it was declared (diagnostics about
 * its files point back there).
 */
export interface Located<T> {
  at: string;
  entry: T;
}

/** What the parser hands the compiler: every entry that parsed cleanly, in manifest order. */
export interface ParsedManifest {
  /** null when the field is missing or breaks its grammar (a diagnostic says which). */
  name: string | null;
  version: string | null;
  subskills: Located<string>[];
  tools: Located<GjcToolEntry | string>[];
  hooks: Located<GjcHookEntry>[];
  mcps: Located<GjcMcpEntry>[];
  systemAppendices: Located<GjcAppendixEntry>[];
  agentAppendices: Located<GjcAgentAppendixEntry>[];
}
