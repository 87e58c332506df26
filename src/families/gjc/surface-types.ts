import type { McpTransport } from "./constants.ts";
import type { ParentKind } from "./parents.ts";

export type GjcSurfaceKind = "tool" | "hook" | "mcp" | "system-appendix" | "agent-appendix" | "subskill";

/**
 * One compiled surface: its stable extension id, its kind, whether it is on after install,
 * and the normalized fields its runtime needs. Field order is fixed, so surfaces serialize to
 * the same bytes however the manifest spelled them.
 */
export interface GjcSurface {
  id: string;
  kind: GjcSurfaceKind;
  enabledByDefault: boolean;
  [k: string]: unknown;
}

export interface GjcToolSurface extends GjcSurface {
  kind: "tool";
  name: string;
  description: string | null;
  path: string;
  sha256: string;
}

export interface GjcHookSurface extends GjcSurface {
  kind: "hook";
  name: string;
  event: string;
  phase: "before" | "after" | null;
  target: string | null;
  path: string;
  sha256: string;
}

export interface GjcMcpSurface extends GjcSurface {
  kind: "mcp";
  name: string;
  transport: McpTransport;
  command: string | null;
  args: string[] | null;
  cwd: string | null;
  url: string | null;
  /** stdio only: how it is launched and which bundled files it runs (hashed and copied). */
  launcher: {
    kind: "node" | "bun" | "bundled";
    script: string | null;
    executable: string | null;
    cwd: string | null;
  } | null;
  /** SHA-256 of the normalized config, so drift in the manifest entry is detectable. */
  configSha256: string;
}

export interface GjcAppendixSurface extends GjcSurface {
  kind: "system-appendix" | "agent-appendix";
  plugin: string;
  agent: string | null;
  name: string;
  source: "file" | "inline";
  path: string | null;
  /** Inline text (null for file appendices: the text is the installed file). */
  content: string | null;
  /** SHA-256 of the appendix text's UTF-8 bytes. */
  sha256: string;
  bytes: number;
}

export interface GjcSubskillSurface extends GjcSurface {
  kind: "subskill";
  name: string;
  description: string;
  parent: string;
  parentKind: ParentKind;
  phase: string;
  activation_arg: string;
  path: string;
  sha256: string;
  /** Sub-skill-scoped tool modules: the manifest's string tools, then this file's `tools:`. */
  toolPaths: string[];
}
